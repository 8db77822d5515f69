package io.ticketing.reservations.inventory;

import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * A code that reserves: it may be used {@code maxUsages} times, only for its item, quota or seat if it names
 * one, and until {@code validUntil}. A {@code blockQuota} voucher holds its unused capacity in the quotas
 * of its item or quota; a seat-bound one holds its seat. {@code redeemed} changes only through SQL
 * updates in the order flows, never through this entity.
 */
@Entity
@Table(name = "vouchers")
public class Voucher extends EventOwnedEntity {

    public String code;

    @Column(name = "max_usages")
    public int maxUsages = 1;

    @Column(insertable = false, updatable = false)
    public int redeemed;

    @Column(name = "valid_until")
    public Instant validUntil;

    @Column(name = "item_id")
    public Long itemId;

    @Column(name = "quota_id")
    public Long quotaId;

    @Column(name = "seat_id")
    public Long seatId;

    @Column(name = "block_quota")
    public boolean blockQuota;

    /**
     * False only for a waiting-list offer, whose uses never come back (V18): a canceled or expired order gives its
     * uses back to every other voucher. Never changes.
     */
    @Column(name = "gives_back", insertable = false, updatable = false)
    public boolean givesBack = true;

    /** The one date of the event this voucher is valid on (contract section 10); null: any. Never changes. */
    @Column(name = "date_id", updatable = false)
    public Long dateId;

    public static Optional<Voucher> findByCode(long eventId, String code) {
        return find("eventId = ?1 and lower(code) = lower(?2)", eventId, code).firstResultOptional();
    }

    /** Vouchers by their codes, ignoring case, keyed by the code as it was asked for. */
    public static Map<String, Voucher> byCodes(long eventId, Collection<String> codes) {
        if (codes.isEmpty()) {
            return Map.of();
        }
        Map<String, Voucher> found = new HashMap<>();
        List<Voucher> vouchers = list("eventId = ?1 and lower(code) in ?2", eventId,
                codes.stream().map(code -> code.toLowerCase(Locale.ROOT)).toList());
        for (String code : codes) {
            vouchers.stream().filter(voucher -> voucher.code.equalsIgnoreCase(code)).findFirst()
                    .ifPresent(voucher -> found.put(code, voucher));
        }
        return found;
    }

    /** The codes of these vouchers, for the views of carts and orders; looking up a null id gives null. */
    public static Map<Long, String> codesOf(Collection<Long> voucherIds) {
        return voucherIds.isEmpty()
                ? Collections.<Long, String>emptyMap()
                : Voucher.<Voucher>list("id in ?1", voucherIds).stream()
                        .collect(Collectors.toMap(voucher -> voucher.id, voucher -> voucher.code));
    }

    public boolean hasExpired(Instant now) {
        return validUntil != null && validUntil.isBefore(now);
    }
}

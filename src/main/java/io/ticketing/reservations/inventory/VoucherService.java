package io.ticketing.reservations.inventory;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.InUseException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.Taken;
import io.ticketing.reservations.problem.ValidationException;

/** Vouchers. One that blocks quota or holds a seat makes things less available, so it is reserved first. */
@ApplicationScoped
public class VoucherService {

    private final CapacityGuard reservations;
    private final InventoryRows rows;
    private final Clock clock;
    private final FreedCapacity freed;
    private final DatePrices dates;
    private final ExpiredHolds expiredHolds;

    VoucherService(CapacityGuard reservations, InventoryRows rows, Clock clock, FreedCapacity freed,
            DatePrices dates, ExpiredHolds expiredHolds) {
        this.expiredHolds = expiredHolds;
        this.dates = dates;
        this.freed = freed;
        this.clock = clock;
        this.reservations = reservations;
        this.rows = rows;
    }

    @DurableTransaction
    public Voucher create(Event event, InventoryRequests.NewVoucher request) {
        if (Voucher.findByCode(event.id, request.code()).isPresent()) {
            throw Taken.voucherCode(request.code());
        }
        Voucher voucher = new Voucher();
        voucher.eventId = event.id;
        voucher.code = request.code();
        voucher.maxUsages = request.maxUsages() == null ? 1 : request.maxUsages();
        voucher.validUntil = request.validUntil();
        voucher.blockQuota = Boolean.TRUE.equals(request.blockQuota());
        voucher.itemId = request.itemId();
        voucher.quotaId = request.quotaId();
        voucher.dateId = request.dateId();
        if (voucher.dateId != null) {
            dates.requireDatesOf(event.id, List.of(voucher.dateId));
        }
        if (voucher.itemId != null && voucher.quotaId != null) {
            throw new ValidationException("quota_id", "a voucher is restricted to an item or a quota, not both");
        }
        if (voucher.itemId != null && Item.findInEvent(event.id, voucher.itemId).isEmpty()) {
            throw new NotFoundException("item", voucher.itemId);
        }
        if (voucher.quotaId != null && Quota.findInEvent(event.id, voucher.quotaId).isEmpty()) {
            throw new NotFoundException("quota", voucher.quotaId);
        }
        Seat seat = request.seatGuid() == null ? null : seat(event, voucher, request.seatGuid());
        if (voucher.blockQuota && voucher.itemId == null && voucher.quotaId == null) {
            throw new ValidationException("block_quota",
                    "needs an item_id, quota_id or seat_guid to know what to block");
        }
        reservations.reserveForVoucher(voucher, seat, voucher::persistAndFlush);
        return voucher;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Voucher get(Event event, String code) {
        return Voucher.findByCode(event.id, code).orElseThrow(() -> new NotFoundException("voucher", code));
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public String seatGuid(Voucher voucher) {
        return voucher.seatId == null ? null : Seat.<Seat>findById(voucher.seatId).guid;
    }

    /** The event's vouchers in the order they were created. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<InventoryViews.VoucherView> list(Event event, PageRequest page) {
        List<Voucher> vouchers = EventOwnedEntity.pageOf(Voucher.class, event.id, page);
        Map<Long, String> seats = Seat.guidsOf(vouchers.stream().map(voucher -> voucher.seatId)
                .filter(Objects::nonNull).toList());
        return Page
                .of(vouchers.stream().map(voucher -> InventoryViews.VoucherView.of(voucher, seats.get(voucher.seatId)))
                        .toList(), page, InventoryViews.VoucherView::id);
    }

    /**
     * Raising the uses of a blocking voucher, turning {@code block_quota} on, or reviving it with a later
     * {@code valid_until} takes capacity from its quotas; reviving a seat-bound one takes its seat; lowering
     * {@code max_usages} takes uses from buyers. Each is locked, and judged by the guard around its write.
     */
    @DurableTransaction
    public Voucher update(Event event, String code, IfMatch ifMatch, InventoryRequests.VoucherChanges changes) {
        Voucher voucher = get(event, code);
        ifMatch.check(voucher.version);
        Instant now = clock.instant();
        int maxUsages = changes.maxUsages() == null ? voucher.maxUsages : changes.maxUsages();
        Instant validUntil = changes.validUntil() == null ? voucher.validUntil : changes.validUntil().orElse(null);
        boolean blockQuota = changes.blockQuota() == null ? voucher.blockQuota : changes.blockQuota();
        if (blockQuota && voucher.itemId == null && voucher.quotaId == null) {
            throw new ValidationException("block_quota",
                    "needs an item_id, quota_id or seat_guid to know what to block");
        }
        boolean validAfter = validUntil == null || !validUntil.isBefore(now);
        Seat seat = voucher.seatId == null ? null : Seat.findById(voucher.seatId);
        boolean heldSeatBefore = seat != null
                && holdsSeat(voucher.maxUsages, voucher.redeemed, !voucher.hasExpired(now));
        boolean blockedBefore = voucher.blockQuota && !voucher.hasExpired(now);
        boolean blocksAfter = blockQuota && validAfter;
        boolean blocksMore = blocksAfter && (!blockedBefore || maxUsages > voucher.maxUsages
                || validUntil == null && voucher.validUntil != null
                || validUntil != null && voucher.validUntil != null && validUntil.isAfter(voucher.validUntil));
        boolean blocksLess = blockedBefore && (!blocksAfter || maxUsages < voucher.maxUsages);
        CapacityGuard.VoucherChange change = new CapacityGuard.VoucherChange(blocksMore,
                seat != null && !heldSeatBefore && holdsSeat(maxUsages, voucher.redeemed, validAfter),
                maxUsages < voucher.maxUsages, maxUsages);
        reservations.reserveForVoucher(voucher, seat, change, () -> {
            voucher.maxUsages = maxUsages;
            voucher.validUntil = validUntil;
            voucher.blockQuota = blockQuota;
            voucher.flush();
        });
        if (blocksLess) {
            freed.of(event);
        }
        return voucher;
    }

    /** Only a voucher nothing was held, sold or redeemed with; otherwise 409 {@code in_use}. Frees, so no lock. */
    @Transactional
    public void delete(Event event, String code) {
        Voucher voucher = get(event, code);
        if (rows.voucherInUse(voucher.id)) {
            throw new InUseException("Voucher '" + voucher.code
                    + "' is held in a cart or was used in an order; it can only be changed, not deleted.");
        }
        expiredHolds.deleteOf(ExpiredHolds.Of.VOUCHER, voucher.id);
        voucher.delete();
        voucher.flush();
        if (voucher.blockQuota) {
            freed.of(event);
        }
    }

    private static boolean holdsSeat(int maxUsages, int redeemed, boolean valid) {
        return valid && redeemed < maxUsages;
    }

    /**
     * A seat-bound voucher is for the seat's item, and in an event with dates for the seat of its date; a different
     * item_id could never be used.
     */
    private static Seat seat(Event event, Voucher voucher, String guid) {
        Seat seat = Seat.findByGuid(event.id, voucher.dateId, guid)
                .orElseThrow(() -> new NotFoundException("seat", guid));
        if (voucher.itemId != null && voucher.itemId != seat.itemId) {
            throw new ValidationException("item_id", "seat " + guid + " is sold as item " + seat.itemId);
        }
        if (voucher.quotaId == null) {
            voucher.itemId = seat.itemId;
        }
        voucher.seatId = seat.id;
        return seat;
    }
}

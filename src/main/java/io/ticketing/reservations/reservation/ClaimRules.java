package io.ticketing.reservations.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.Membership;
import io.ticketing.reservations.inventory.QuotaMembers;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;

/**
 * What a change asks for must make sense before anything is locked (contract sections 1 and 10): its items exist and
 * are on sale, its dates are the event's and on sale (a pass names none), its seats are of its items and dates, its
 * vouchers are valid for what they are used on. Pure functions of what {@link ReservationReads} read; whether the
 * change fits is {@link ReservationChecks#checkFits}'s, after the locks.
 */
final class ClaimRules {

    private ClaimRules() {
    }

    /**
     * What {@code change} asks for must make sense before anything is locked. {@code namedDates} are the dates the
     * claims name that belong to the event, with whether each is on sale; {@code channel}, where the cart or order
     * sells (contract section 12): an item limited to other channels is 409 {@code item_unavailable} there.
     */
    static void checkRules(Change change, Map<Long, ItemForSale> items, List<Membership> quotas,
            Map<Long, Boolean> namedDates, String channel, Instant now) {
        Set<Long> seatsClaimed = new HashSet<>();
        for (Claim claim : change.claims()) {
            ItemForSale item = checkOnSale(claim, items, quotas, namedDates, channel);
            for (Seat seat : checkSeats(claim, item, change.seats())) {
                if (!seatsClaimed.add(seat.id)) {
                    throw ReservationConflict.seatUnavailable(seat);
                }
                if (!ItemForSale.sellsIn(seat.channels, channel)) {
                    throw ReservationConflict.seatNotInChannel(seat, channel);
                }
            }
            Voucher voucher = claim.voucherId() == null ? null : change.vouchers().get(claim.voucherId());
            if (voucher != null) {
                Seat seat = claim.seatId() == null ? null : change.seats().get(claim.seatId());
                checkVoucherFits(voucher, claim, item, seat, ClaimQuotas.quotasOf(claim, items, quotas), now);
            }
        }
    }

    /**
     * The rules of one claim that no seat or voucher changes: its item exists and is on sale (active, in a quota that
     * counts it on its dates, as what it bundles must be), on a date on sale, in {@code channel} (what a bundle brings
     * sells where the bundle does; a null channel: any). Returns the item.
     */
    static ItemForSale checkOnSale(Claim claim, Map<Long, ItemForSale> items, List<? extends QuotaMembers> quotas,
            Map<Long, Boolean> namedDates, String channel) {
        ItemForSale item = items.get(claim.itemId());
        if (item == null) {
            throw new NotFoundException("item", claim.itemId());
        }
        checkDate(claim, item, namedDates);
        if (!item.active() || ClaimQuotas.quotasOf(claim, items, quotas).isEmpty()) {
            throw ReservationConflict.notOnSale(item);
        }
        if (claim.bundledIn() == null && channel != null && !item.sellsIn(channel)) {
            throw ReservationConflict.notInChannel(item, channel);
        }
        return item;
    }

    /** The date rules of contract section 10, for one claim. */
    private static void checkDate(Claim claim, ItemForSale item, Map<Long, Boolean> namedDates) {
        if (claim.dateId() != null) {
            Boolean onSale = namedDates.get(claim.dateId());
            if (onSale == null) {
                throw new NotFoundException("date", claim.dateId());
            }
            if (item.everyDate()) {
                throw new ValidationException("positions.date_id",
                        "item " + item.id() + " is a pass for every date; it names no date");
            }
            if (!onSale) {
                throw ReservationConflict.dateUnavailable(claim.dateId());
            }
        } else if (item.eventDated()) {
            // Of no date in an event with dates: a pass, or what a pass's bundle brought, counting on every date.
            if (item.passDates() == null || !item.everyDate() && claim.bundledIn() == null) {
                throw ReservationConflict.dateRequired(item);
            }
            if (!item.passOnSale()) {
                throw ReservationConflict.noActiveDate(item);
            }
        }
    }

    /** The seats the claim takes, each checked to be one it may take; refusals as the contract names them. */
    private static List<Seat> checkSeats(Claim claim, ItemForSale item, Map<Long, Seat> seats) {
        if (claim.passSeatGuid() != null) {
            if (!item.requiresSeat() || !item.everyDate()) {
                throw item.everyDate() || !item.eventDated()
                        ? ReservationConflict.seatNotAllowedByGuid(item, claim.passSeatGuid())
                        : ReservationConflict.dateRequired(item);
            }
            List<Seat> taken = new ArrayList<>();
            for (long date : item.passDates()) {
                Seat seat = seats.values().stream().filter(s -> claim.passSeatGuid().equals(s.guid)
                        && Long.valueOf(date).equals(s.dateId) && s.itemId == item.id()).findFirst()
                        .orElseThrow(() -> ReservationConflict.passSeatMissing(item, claim.passSeatGuid(), date));
                taken.add(seat);
            }
            return taken;
        }
        Seat seat = claim.seatId() == null ? null : seats.get(claim.seatId());
        if (item.requiresSeat() && seat == null) {
            throw ReservationConflict.seatRequired(item);
        }
        if (seat == null) {
            return List.of();
        }
        if (!item.requiresSeat() || seat.itemId != item.id() || item.everyDate()
                || !Objects.equals(seat.dateId, claim.dateId())) {
            throw ReservationConflict.seatNotAllowed(item, seat);
        }
        return List.of(seat);
    }

    private static void checkVoucherFits(Voucher voucher, Claim claim, ItemForSale item, Seat seat,
            List<Membership> quotasOfItem, Instant now) {
        if (voucher.hasExpired(now)) {
            throw ReservationConflict.voucherExpired(voucher);
        }
        if (voucher.itemId != null && voucher.itemId != item.id()) {
            throw ReservationConflict.voucherInvalid(voucher, "is not valid for item " + item.id());
        }
        if (voucher.quotaId != null && quotasOfItem.stream().noneMatch(quota -> quota.id() == voucher.quotaId)) {
            throw ReservationConflict.voucherInvalid(voucher, "is not valid for item " + item.id());
        }
        if (voucher.seatId != null && (seat == null || seat.id.longValue() != voucher.seatId)) {
            throw ReservationConflict.voucherInvalid(voucher, "is valid only for its own seat");
        }
        if (voucher.dateId != null && !voucher.dateId.equals(claim.dateId())) {
            throw ReservationConflict.voucherInvalid(voucher, "is valid only on date " + voucher.dateId);
        }
    }
}

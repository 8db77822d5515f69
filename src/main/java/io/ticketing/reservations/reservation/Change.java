package io.ticketing.reservations.reservation;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;

/**
 * One change of what is held or sold, the value every step of the one rule takes (contract section 3): the positions it
 * leaves written ({@code claims}; once expanded, each new one followed by what its bundle brings), what it frees in the
 * same transaction before its count ({@code freed}: an order change's old positions, a transfer's moving ones), and of
 * those the positions whose voucher uses stay redeemed because a written position uses them again
 * ({@code usesKept}); the cart positions it re-checks, which never count against themselves ({@code ownPositions});
 * the seats (a pass's on every date) and vouchers its claims name; and whether its positions were sold already and
 * only change hands ({@code sold}: a transfer, whose items need not be on sale any more). Whose it is, a cart's or an
 * order's {@link Holder}, is known once its row is locked, and goes beside it.
 */
public record Change(List<Claim> claims, List<Claim> freed, List<Claim> usesKept, Collection<Long> ownPositions,
        Map<Long, Seat> seats, Map<Long, Voucher> vouchers, boolean sold) {

    /** New positions only: nothing freed, none of them the change's own yet. */
    static Change adding(List<Claim> claims, Map<Long, Seat> seats, Map<Long, Voucher> vouchers) {
        return new Change(claims, List.of(), List.of(), List.of(), seats, vouchers, false);
    }

    /** The same change with its claims as they will be written. */
    Change writing(List<Claim> written) {
        return new Change(written, freed, usesKept, ownPositions, seats, vouchers, sold);
    }

    /** The vouchers its claims use: what the waiting list's offers among them keep back is the change's own. */
    Set<Long> voucherIds() {
        return Reservations.ids(claims, Claim::voucherId);
    }
}

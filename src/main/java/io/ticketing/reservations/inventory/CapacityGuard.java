package io.ticketing.reservations.inventory;

import java.util.Set;

/**
 * Admin edits that make capacity scarcer (contract sections 2 and 4), each locked and judged by the one rule of
 * section 3 around its {@code write}: refused with the buyer's codes, and nothing written, when the capacity is
 * taken. The lock engine implements it ({@code AdminReservations}): it depends on inventory, inventory only on this.
 */
public interface CapacityGuard {

    /**
     * What a voucher's change may take: its quotas when it blocks more (more uses, {@code block_quota} on, a later
     * {@code valid_until}), its seat when it starts to hold it, uses from buyers when {@code max_usages} falls.
     */
    record VoucherChange(boolean blocksMore, boolean takesSeat, boolean lowersUses, int maxUsagesAfter) {
    }

    /** A new voucher: a blocking one takes from its quotas, a seat-bound one its seat. */
    default void reserveForVoucher(Voucher voucher, Seat seat, Runnable write) {
        reserveForVoucher(voucher, seat, new VoucherChange(voucher.blockQuota, seat != null, false, 0), write);
    }

    /** A changed voucher, written by {@code write} once what it takes is locked and checked. */
    void reserveForVoucher(Voucher voucher, Seat seat, VoucherChange change, Runnable write);

    /** Blocking a seat: refused while it is held, sold or reserved by a voucher. */
    void reserveForBlocking(Seat seat);

    /**
     * A quota that starts to count what was held and sold before (created over items, joined by items, made
     * finite), written by {@code write}, with {@code itemsAfter} its items once written: it must have room for what
     * it then counts.
     */
    void reserveForQuota(Quota quota, Set<Long> itemsAfter, Runnable write);

    /**
     * An allotment made or made to keep more (contract section 12), written by {@code write}: the quota must have
     * room for what it then keeps beside what it holds, sells and blocks.
     */
    void reserveForAllotment(Quota quota, Runnable write);

    /**
     * A seating plan imported, replaced or deleted (contract section 13), written by {@code write}: it cannot tell
     * beforehand which seats it takes away, so it holds the whole event while it checks that none in use leaves.
     */
    void reserveForSeating(long eventId, Runnable write);

    /**
     * A new date, with its seats from the event's seating plan, written by {@code write}: the event held shared, so
     * that a plan replaced at the same moment (which holds it exclusively) either is what {@code write} reads or reads
     * the new date; buyers and other dates go on meanwhile. The {@code first} date of an event holds it exclusively:
     * the event becomes a series only while nothing of no date is held or sold (contract section 10), which no buyer
     * may change while {@code write} checks it.
     */
    void reserveForNewDate(long eventId, boolean first, Runnable write);
}

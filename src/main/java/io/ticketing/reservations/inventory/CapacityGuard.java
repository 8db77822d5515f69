package io.ticketing.reservations.inventory;

/**
 * What an admin edit that makes capacity scarcer has checked under the locks before it writes (contract sections 2
 * and 4), refusing with the buyer's codes when the capacity is taken. The lock engine implements it
 * ({@code AdminReservations}): it depends on inventory, inventory only on this.
 */
public interface CapacityGuard {

    /**
     * A voucher's change, as the numbers that decide what it takes: the {@code max_usages} it blocks with before and
     * after (0 while it does not block), of which each quota counts what the voucher has not used there.
     */
    record VoucherChange(int blockingUsesBefore, int blockingUsesAfter, boolean takesSeat, boolean lowersUses,
            int maxUsagesAfter) {
    }

    /** A new voucher: a blocking one takes {@code max_usages} from each finite quota, a seat-bound one its seat. */
    default void reserveForVoucher(Voucher voucher, Seat seat) {
        reserveForVoucher(voucher, seat,
                new VoucherChange(0, voucher.blockQuota ? voucher.maxUsages : 0, seat != null, false, 0));
    }

    /** A changed voucher: what its blocking grows by, its seat if it starts to hold it, itself if it shrinks. */
    void reserveForVoucher(Voucher voucher, Seat seat, VoucherChange change);

    /** Blocking a seat: refused while it is held, sold or reserved by a voucher. */
    void reserveForBlocking(Seat seat);
}

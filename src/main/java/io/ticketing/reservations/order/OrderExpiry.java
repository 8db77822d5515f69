package io.ticketing.reservations.order;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.tasks.Sweep;

/**
 * Expires pending orders past their payment deadline, on every replica at once. The candidate query takes no
 * lock and may be stale; {@link OrderService#expireIfDue} claims each order with SKIP LOCKED and checks it
 * again, so each order expires once, whichever replica gets it.
 */
@ApplicationScoped
public class OrderExpiry implements Sweep {

    private final OrderService orders;
    private final OrderRows rows;

    OrderExpiry(OrderService orders, OrderRows rows) {
        this.orders = orders;
        this.rows = rows;
    }

    /** The candidate query runs without a transaction, in auto-commit. */
    @Override
    public int sweep() {
        return (int) rows.dueCandidates().stream().filter(orders::expireIfDue).count();
    }
}

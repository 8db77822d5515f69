package io.ticketing.reservations.cart;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.ticketing.reservations.tasks.Sweep;
import io.ticketing.reservations.tasks.TasksConfig;

/**
 * Deletes carts that ran out longer than {@code tasks.cart-retention} ago, on every replica at once. Expired
 * holds stopped counting at their deadline already; this only keeps the tables small.
 */
@ApplicationScoped
public class CartCleanup implements Sweep {

    private final CartRows rows;
    private final TasksConfig config;

    CartCleanup(CartRows rows, TasksConfig config) {
        this.rows = rows;
        this.config = config;
    }

    /** The candidate query runs without a transaction, in auto-commit. */
    @Override
    public int sweep() {
        return (int) rows.staleCandidates(config.cartRetention()).stream().filter(this::deleteIfStale).count();
    }

    /** One short transaction per cart, so a replica never holds many rows and two never wait on each other. */
    private boolean deleteIfStale(String cartId) {
        return QuarkusTransaction.requiringNew().call(() -> rows.deleteIfStale(cartId, config.cartRetention()));
    }
}

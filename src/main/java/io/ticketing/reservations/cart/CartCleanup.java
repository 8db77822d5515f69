package io.ticketing.reservations.cart;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.tasks.Sweep;
import io.ticketing.reservations.tasks.TasksConfig;

/**
 * Deletes carts that ran out longer than {@code tasks.cart-retention} ago, on every replica at once. Expired
 * holds stopped counting at their deadline already; this only keeps the tables small.
 */
@ApplicationScoped
public class CartCleanup implements Sweep {

    /** A read of the whole table: carts has no index on its deadline, so that moving one is a HOT update (V28). */
    private static final String STALE = """
            SELECT id FROM carts WHERE expires < now() - make_interval(secs => :retention) LIMIT 500""";
    /** Claims a stale cart unless another replica (or its buyer, extending it) has it, and checks its age again. */
    private static final String CLAIM_STALE = """
            SELECT id FROM carts WHERE id = :cart AND expires < now() - make_interval(secs => :retention)
            FOR UPDATE SKIP LOCKED""";

    private final CartRows rows;
    private final Jdbc jdbc;
    private final TasksConfig config;

    CartCleanup(CartRows rows, Jdbc jdbc, TasksConfig config) {
        this.rows = rows;
        this.jdbc = jdbc;
        this.config = config;
    }

    /** The candidates, read without a lock in auto-commit, so possibly stale: each is claimed again. */
    @Override
    public int sweep() {
        List<String> candidates = jdbc.statement(STALE).set("retention", config.cartRetention().toSeconds())
                .list(row -> row.getString(1));
        return (int) candidates.stream().filter(this::deleteIfStale).count();
    }

    /**
     * One short transaction per cart, so a replica never holds many rows and two never wait on each other: the cart
     * is deleted if it is still stale and no one else has it.
     */
    private boolean deleteIfStale(String cartId) {
        return QuarkusTransaction.requiringNew().call(() -> {
            if (jdbc.statement(CLAIM_STALE).set("cart", cartId).set("retention", config.cartRetention().toSeconds())
                    .list(row -> row.getString(1)).isEmpty()) {
                return false;
            }
            rows.delete(cartId);
            return true;
        });
    }
}

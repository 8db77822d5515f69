package io.ticketing.reservations.cart;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.persistence.EntityManager;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.ticketing.reservations.tasks.Sweep;
import io.ticketing.reservations.tasks.TasksConfig;

/**
 * Deletes carts that ran out longer than {@code tasks.cart-retention} ago, on every replica at once. Expired
 * holds stopped counting at their deadline already; this only keeps the tables small.
 */
@ApplicationScoped
public class CartCleanup implements Sweep {

    private static final String CANDIDATES = """
            SELECT id FROM carts WHERE expires < now() - make_interval(secs => :retention) LIMIT 500""";

    /** Claims the cart unless another replica (or its buyer, extending it) has it, and re-checks its age. */
    private static final String CLAIM = """
            SELECT id FROM carts WHERE id = :cart AND expires < now() - make_interval(secs => :retention)
            FOR UPDATE SKIP LOCKED""";

    private final EntityManager entityManager;
    private final TasksConfig config;

    CartCleanup(EntityManager entityManager, TasksConfig config) {
        this.entityManager = entityManager;
        this.config = config;
    }

    /** The candidate query runs without a transaction, on the sweep's own thread: it needs a request context. */
    @Override
    @ActivateRequestContext
    public int sweep() {
        List<String> candidates = entityManager.createNativeQuery(CANDIDATES, String.class)
                .setParameter("retention", config.cartRetention().toSeconds()).getResultList();
        return (int) candidates.stream().filter(this::deleteIfStale).count();
    }

    /** One short transaction per cart, so a replica never holds many rows and two never wait on each other. */
    private boolean deleteIfStale(String cartId) {
        return QuarkusTransaction.requiringNew().call(() -> {
            if (entityManager.createNativeQuery(CLAIM).setParameter("cart", cartId)
                    .setParameter("retention", config.cartRetention().toSeconds()).getResultList().isEmpty()) {
                return false;
            }
            entityManager.createNativeQuery("DELETE FROM carts WHERE id = :cart").setParameter("cart", cartId)
                    .executeUpdate();
            return true;
        });
    }
}

package io.ticketing.reservations.order;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.persistence.EntityManager;

import io.ticketing.reservations.tasks.Sweep;

/**
 * Expires pending orders past their payment deadline, on every replica at once. The candidate query takes no
 * lock and may be stale; {@link OrderService#expireIfDue} claims each order with SKIP LOCKED and checks it
 * again, so each order expires once, whichever replica gets it.
 */
@ApplicationScoped
public class OrderExpiry implements Sweep {

    private static final String CANDIDATES = """
            SELECT id FROM orders WHERE status = 'pending' AND expires < now() ORDER BY expires LIMIT 500""";

    private final OrderService orders;
    private final EntityManager entityManager;

    OrderExpiry(OrderService orders, EntityManager entityManager) {
        this.orders = orders;
        this.entityManager = entityManager;
    }

    /** The candidate query runs without a transaction, on the sweep's own thread: it needs a request context. */
    @Override
    @ActivateRequestContext
    public int sweep() {
        List<Long> candidates = entityManager.createNativeQuery(CANDIDATES, Long.class).getResultList();
        return (int) candidates.stream().filter(orders::expireIfDue).count();
    }
}

package io.ticketing.reservations.support;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;

/** Direct SQL for tests: to move time (expire holds) and to check invariants behind the API's back. */
@ApplicationScoped
public class Sql {

    @Inject
    EntityManager entityManager;

    @Transactional
    public int update(String sql, Object... parameters) {
        return query(sql, parameters).executeUpdate();
    }

    @Transactional
    public long number(String sql, Object... parameters) {
        return ((Number) query(sql, parameters).getSingleResult()).longValue();
    }

    @Transactional
    public List<?> rows(String sql, Object... parameters) {
        return query(sql, parameters).getResultList();
    }

    private Query query(String sql, Object... parameters) {
        Query query = entityManager.createNativeQuery(sql);
        for (int i = 0; i < parameters.length; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        return query;
    }

    /**
     * Makes every hold of the cart expire a minute ago, as if its buyer had walked away. The cart's row is written
     * too, as every change to its positions writes it in the service: what a replica knows of the cart is then read
     * again.
     */
    public void expireCart(String cart) {
        update("WITH revised AS (UPDATE carts SET expires = expires WHERE id = ?1)"
                + " UPDATE cart_positions SET expires = now() - interval '1 minute' WHERE cart_id = ?1", cart);
    }

    /** Moves an order's payment deadline into the past. */
    public void passDeadline(String orderCode) {
        update("UPDATE orders SET expires = now() - interval '1 minute' WHERE code = ?1", orderCode);
    }

    public long orderId(String orderCode) {
        return number("SELECT id FROM orders WHERE code = ?1", orderCode);
    }
}

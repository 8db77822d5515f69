package io.ticketing.reservations.cart;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A buyer's short hold. Its random id is its only credential. */
@Entity
@Table(name = "carts")
public class Cart extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "event_id")
    public long eventId;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;

    /** The latest deadline of its positions, or creation plus the event's TTL while it is empty. */
    public Instant expires;

    /** The statement behind {@link #lockExtending}. Public for the benchmark, which runs it through pgbench. */
    public static final String LOCK_EXTENDING = "UPDATE carts SET expires = greatest(expires, :expires)"
            + " WHERE id = :id AND event_id = :event RETURNING *";

    /**
     * Locks the cart's row for this transaction and moves its deadline to {@code expires} if that is later, in one
     * statement: the update is what takes the row lock.
     */
    static Optional<Cart> lockExtending(long eventId, String cartId, Instant expires) {
        List<?> carts = getEntityManager().createNativeQuery(LOCK_EXTENDING, Cart.class)
                .setParameter("expires", expires).setParameter("id", cartId).setParameter("event", eventId)
                .getResultList();
        return carts.stream().map(Cart.class::cast).findFirst();
    }

    public static Optional<Cart> findInEvent(long eventId, String cartId) {
        return find("id = ?1 and eventId = ?2", cartId, eventId).firstResultOptional();
    }

    public List<CartPosition> positions() {
        return CartPosition.list("cartId = ?1 order by id", id);
    }
}

package io.ticketing.reservations.cart;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.ticketing.reservations.jdbc.Jdbc;

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
            + " WHERE id = :id AND event_id = :event RETURNING id, event_id, created_at, expires";

    /** A new cart, in one statement: it needs nothing else. */
    static final String INSERT = "INSERT INTO carts (id, event_id, expires) VALUES (:id, :event, :expires)"
            + " RETURNING id, event_id, created_at, expires";

    /** The cart, its row locked for this transaction. */
    private static final String LOCK = "SELECT id, event_id, created_at, expires FROM carts"
            + " WHERE id = :id AND event_id = :event FOR UPDATE";

    /**
     * Locks the cart's row for this transaction and moves its deadline to {@code expires} if that is later, in one
     * statement: the update is what takes the row lock. No row: no such cart. The cart is not managed by Hibernate.
     */
    static Jdbc.Query<Cart> lockExtending(Jdbc jdbc, long eventId, String cartId, Instant expires) {
        return jdbc.statement(LOCK_EXTENDING).set("expires", expires).set("id", cartId).set("event", eventId)
                .reading(Cart::read);
    }

    /** Locks the cart's row for this transaction. No row: no such cart. The cart is not managed by Hibernate. */
    static Jdbc.Query<Cart> lock(Jdbc jdbc, long eventId, String cartId) {
        return jdbc.statement(LOCK).set("id", cartId).set("event", eventId).reading(Cart::read);
    }

    static Cart read(ResultSet row) throws SQLException {
        Cart cart = new Cart();
        cart.id = row.getString(1);
        cart.eventId = row.getLong(2);
        cart.createdAt = Jdbc.instant(row, 3);
        cart.expires = Jdbc.instant(row, 4);
        return cart;
    }

    public static Optional<Cart> findInEvent(long eventId, String cartId) {
        return find("id = ?1 and eventId = ?2", cartId, eventId).firstResultOptional();
    }

    public List<CartPosition> positions() {
        return CartPosition.list("cartId = ?1 order by id", id);
    }
}

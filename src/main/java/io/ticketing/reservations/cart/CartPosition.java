package io.ticketing.reservations.cart;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.reservation.Claim;
import io.ticketing.reservations.reservation.HeldPosition;

/** One held ticket; it counts against its quotas, seat and voucher while {@code expires >= now}. */
@Entity
@Table(name = "cart_positions")
public class CartPosition extends HeldPosition {

    private static final String COLUMNS = HELD_COLUMNS + ", expires, created_at";

    /**
     * New holds, with the prices their items have now, returned. Public for the benchmark, which runs it through
     * pgbench.
     */
    public static final String INSERT_ALL = """
            INSERT INTO cart_positions (cart_id, item_id, seat_id, voucher_id, price, expires)
            SELECT :cart, c.item_id, c.seat_id, c.voucher_id, i.price, :expires
            FROM unnest(:items, :seats, :vouchers) WITH ORDINALITY AS c (item_id, seat_id, voucher_id, n)
            JOIN items i ON i.id = c.item_id ORDER BY c.n
            RETURNING\s""" + COLUMNS;

    /** A cart's positions. Public for the benchmark. */
    public static final String OF_CART = "SELECT " + COLUMNS + " FROM cart_positions WHERE cart_id = :cart ORDER BY id";

    @Column(name = "cart_id")
    public String cartId;

    public Instant expires;

    /** When the hold was taken: its deadline never passes this plus {@code reservation.max-hold}. */
    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;

    /** The cart's positions, not managed by Hibernate: for an answer, read with the cart's row lock held. */
    static Jdbc.Query<CartPosition> ofCart(Jdbc jdbc, String cartId) {
        return jdbc.statement(OF_CART).set("cart", cartId).reading(row -> read(row, cartId));
    }

    /** Inserts one position per claim and returns them, not managed by Hibernate. */
    static Jdbc.Query<CartPosition> insertAll(Jdbc jdbc, String cartId, List<Claim> claims, Instant expires) {
        return jdbc.statement(INSERT_ALL).set("cart", cartId)
                .set("items", claims.stream().map(Claim::itemId).toArray(Long[]::new))
                .set("seats", claims.stream().map(Claim::seatId).toArray(Long[]::new))
                .set("vouchers", claims.stream().map(Claim::voucherId).toArray(Long[]::new)).set("expires", expires)
                .reading(row -> read(row, cartId));
    }

    private static CartPosition read(ResultSet row, String cartId) throws SQLException {
        CartPosition position = new CartPosition();
        position.readHeld(row);
        position.cartId = cartId;
        position.expires = Jdbc.instant(row, 6);
        position.createdAt = Jdbc.instant(row, 7);
        return position;
    }
}

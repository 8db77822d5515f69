package io.ticketing.reservations.cart;

import java.time.Instant;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.ticketing.reservations.reservation.Claim;
import io.ticketing.reservations.reservation.HeldPosition;

/** One held ticket; it counts against its quotas, seat and voucher while {@code expires >= now}. */
@Entity
@Table(name = "cart_positions")
public class CartPosition extends HeldPosition {

    /** New holds, with the prices their items have now. Public for the benchmark, which runs it through pgbench. */
    public static final String INSERT_ALL = """
            INSERT INTO cart_positions (cart_id, item_id, seat_id, voucher_id, price, expires)
            SELECT :cart, c.item_id, c.seat_id, c.voucher_id, i.price, :expires
            FROM unnest(:items, :seats, :vouchers) WITH ORDINALITY AS c (item_id, seat_id, voucher_id, n)
            JOIN items i ON i.id = c.item_id ORDER BY c.n""";

    @Column(name = "cart_id")
    public String cartId;

    public Instant expires;

    static void insertAll(String cartId, List<Claim> claims, Instant expires) {
        getEntityManager().createNativeQuery(INSERT_ALL).setParameter("cart", cartId)
                .setParameter("items", claims.stream().map(Claim::itemId).toArray(Long[]::new))
                .setParameter("seats", claims.stream().map(Claim::seatId).toArray(Long[]::new))
                .setParameter("vouchers", claims.stream().map(Claim::voucherId).toArray(Long[]::new))
                .setParameter("expires", expires).executeUpdate();
    }
}

package io.ticketing.reservations.order;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;

/** The statements of a transfer ({@link Transfers}) that no other flow sends. */
@ApplicationScoped
class TransferRows {

    /**
     * The positions that change hands, locked as a scan locks its ticket ({@code CheckinRows}): a scan at a gate sees
     * the ticket before the transfer (and the transfer then sees it inside) or after it (and its old secret is
     * unknown), never both.
     */
    private static final String LOCK_MOVING = """
            SELECT id FROM order_positions WHERE order_id = :order AND id = ANY(:positions) ORDER BY id FOR UPDATE""";
    /**
     * Of those, the ones inside on a list. A statement after {@link #LOCK_MOVING}'s, so that it sees what a scan that
     * held a lock before committed.
     */
    private static final String INSIDE = """
            SELECT DISTINCT position_id FROM checkin_states WHERE position_id = ANY(:positions) AND inside
            ORDER BY position_id""";
    /**
     * The receiver's order, in the status, payment deadline and channel of the one the positions leave, and the
     * positions moved into it, each with a new secret (the old ticket scans {@code unknown}). No position is written
     * again and no order changes status, so no sales counter, seat or voucher use moves (contract section 14).
     */
    private static final String MOVE = """
            WITH received AS (
              INSERT INTO orders (event_id, code, email, status, expires, created_at, buyer, channel)
              SELECT event_id, :code, :email, status, expires, :created, :buyer, channel FROM orders WHERE id = :from
              RETURNING id)
            UPDATE order_positions p SET order_id = received.id, secret = ticket_secret()
            FROM received WHERE p.order_id = :from AND p.id = ANY(:positions)
            RETURNING p.id""";

    private final Jdbc jdbc;

    TransferRows(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks the positions that move and returns those inside on a list: one round trip. */
    List<Long> lockMovingInside(long orderId, List<Long> positions) {
        Long[] ids = positions.toArray(Long[]::new);
        Jdbc.RoundTrip locking = jdbc.roundTrip();
        locking.add(jdbc.statement(LOCK_MOVING).set("order", orderId).set("positions", ids));
        Jdbc.Rows<Long> inside = locking.add(jdbc.statement(INSIDE).set("positions", ids)
                .reading(row -> row.getLong(1)));
        locking.send();
        return inside.all();
    }

    /** The write a transfer sends with its locks and checks: the receiver's order, with the positions in it. */
    Jdbc.Query<Long> move(long fromOrder, List<Long> positions, String code, String email, String buyer,
            Instant created) {
        return jdbc.statement(MOVE).set("from", fromOrder).set("positions", positions.toArray(Long[]::new))
                .set("code", code).set("email", email).set("buyer", buyer).set("created", created)
                .reading(row -> row.getLong(1));
    }
}

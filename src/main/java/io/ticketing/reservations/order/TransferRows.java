package io.ticketing.reservations.order;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;

/** The statements of a transfer ({@link Transfers}) that no other flow sends. */
@ApplicationScoped
class TransferRows {

    /**
     * The positions that change hands, locked as a scan locks its ticket ({@code CheckinRows}), right after the
     * transfer's advisory locks (never before: a scan must not wait for a transfer that waits for them). A scan at a
     * gate then sees the ticket before the transfer (which then finds it inside) or after it (and its old secret is
     * unknown), never both.
     */
    private static final String LOCK_MOVING = """
            SELECT id FROM order_positions WHERE order_id = :order AND id = ANY(:positions) ORDER BY id FOR UPDATE""";
    /**
     * The receiver's order, in the status, payment deadline, channel and time of sale of the one the positions leave,
     * and the positions moved into it, each with a new secret (the old ticket scans {@code unknown}); nothing if one
     * of them is inside on a list. A statement after {@link #LOCK_MOVING}'s, so that it sees what a scan that held a
     * ticket's lock before committed. No position is written again and no order changes status, so no sales counter,
     * seat or voucher use moves (contract section 14).
     */
    private static final String MOVE = """
            WITH received AS (
              INSERT INTO orders (event_id, code, email, status, expires, created_at, buyer, channel)
              SELECT event_id, :code, :email, status, expires, created_at, :buyer, channel FROM orders
              WHERE id = :from AND NOT EXISTS (
                SELECT 1 FROM checkin_states WHERE position_id = ANY(:positions) AND inside)
              RETURNING id)
            UPDATE order_positions p SET order_id = received.id, secret = ticket_secret()
            FROM received WHERE p.order_id = :from AND p.id = ANY(:positions)
            RETURNING p.id""";
    private static final String INSIDE = """
            SELECT position_id FROM checkin_states WHERE position_id = ANY(:positions) AND inside
            ORDER BY position_id LIMIT 1""";

    private final Jdbc jdbc;

    TransferRows(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** The moving positions' row locks, for the transfer to send right after its advisory locks. */
    Jdbc.Statement lockMoving(long orderId, List<Long> positions) {
        return jdbc.statement(LOCK_MOVING).set("order", orderId).set("positions", positions.toArray(Long[]::new));
    }

    /**
     * The write a transfer sends with its locks and checks: the receiver's order, with the positions in it; none if
     * one of them is inside ({@link #inside}).
     */
    Jdbc.Query<Long> move(long fromOrder, List<Long> positions, String code, String email, String buyer) {
        return jdbc.statement(MOVE).set("from", fromOrder).set("positions", positions.toArray(Long[]::new))
                .set("code", code).set("email", email).set("buyer", buyer).reading(row -> row.getLong(1));
    }

    /** The first of the positions inside on a list, once their rows are locked. */
    Optional<Long> inside(List<Long> positions) {
        return jdbc.statement(INSIDE).set("positions", positions.toArray(Long[]::new)).list(row -> row.getLong(1))
                .stream().findFirst();
    }
}

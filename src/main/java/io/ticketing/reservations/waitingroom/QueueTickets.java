package io.ticketing.reservations.waitingroom;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;

/** Every statement of the waiting room (contract section 8), on plain JDBC. */
@ApplicationScoped
class QueueTickets {

    /** A ticket taken before the opening draws a random place below 1; a later one queues by arrival. */
    private static final String JOIN = """
            INSERT INTO queue_tickets (id, event_id, place, client, buyer)
            VALUES (:id, :event, CASE WHEN CAST(:opens_at AS timestamptz) > now() THEN random()
                                      ELSE 1 + nextval('queue_arrivals') END, :client, :buyer)""";
    /** The tickets of one client, or one buyer, still waiting or admitted less than a cart's time ago. */
    private static final String HELD_BY_CLIENT = """
            SELECT count(*) FROM queue_tickets WHERE event_id = :event AND client = :client
              AND (admitted_at IS NULL OR admitted_at > now() - make_interval(secs => :ttl))""";
    private static final String HELD_BY_BUYER = """
            SELECT count(*) FROM queue_tickets WHERE event_id = :event AND buyer = :buyer
              AND (admitted_at IS NULL OR admitted_at > now() - make_interval(secs => :ttl))""";
    /**
     * The ticket with the number of waiting tickets ahead of it. Before the opening no order exists yet, so every
     * other waiting ticket counts as ahead. A read: it takes no lock.
     */
    private static final String READ = """
            SELECT t.id, t.admitted_at, CASE WHEN CAST(:opens_at AS timestamptz) > now()
                THEN (SELECT count(*) FROM queue_tickets a
                      WHERE a.event_id = t.event_id AND a.admitted_at IS NULL AND a.id <> t.id)
                ELSE (SELECT count(*) FROM queue_tickets a
                      WHERE a.event_id = t.event_id AND a.admitted_at IS NULL AND a.place < t.place) END
            FROM queue_tickets t WHERE t.id = :id AND t.event_id = :event""";
    private static final String CART_TICKET = """
            SELECT admission_ticket FROM carts WHERE id = :cart AND event_id = :event""";
    private static final String OPEN_ROOMS = """
            SELECT id FROM events WHERE waiting_room_enabled AND (opens_at IS NULL OR opens_at <= now())""";
    /**
     * The room's admission turn: one replica at a time per event, the others skip it. NO KEY UPDATE does not
     * conflict with the key-share locks that inserting carts and queue tickets of the event take.
     */
    private static final String TAKE_TURN = """
            SELECT admission_per_minute, opens_at FROM events
            WHERE id = :event AND waiting_room_enabled AND (opens_at IS NULL OR opens_at <= now())
            FOR NO KEY UPDATE SKIP LOCKED""";
    /** The database's time now, and the room's last admission slot. */
    private static final String LAST_SLOT = """
            SELECT clock_timestamp(), max(admitted_at) FROM queue_tickets WHERE event_id = :event""";
    /** The lowest places waiting get the slots {@code :after + n * :spacing}, n = 1, 2, ... */
    private static final String ADMIT = """
            WITH picked AS (
              SELECT id, row_number() OVER (ORDER BY place) AS n FROM (
                SELECT id, place FROM queue_tickets WHERE event_id = :event AND admitted_at IS NULL
                ORDER BY place LIMIT :count) waiting)
            UPDATE queue_tickets q
            SET admitted_at = CAST(:after AS timestamptz) + picked.n * make_interval(secs => :spacing)
            FROM picked WHERE q.id = picked.id AND q.admitted_at IS NULL""";

    /** A ticket as read: {@code ahead} waiting tickets before it; {@code admittedAt} null while it waits. */
    record Ticket(String id, Instant admittedAt, long ahead) {
    }

    /** The database's clock now, and the room's last admission slot (null before the first). */
    record Slots(Instant now, Instant last) {
    }

    private final Jdbc jdbc;

    QueueTickets(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    void join(String id, long eventId, Instant opensAt, String client, String buyer) {
        jdbc.statement(JOIN).set("id", id).set("event", eventId).set("opens_at", opensAt).set("client", client)
                .set("buyer", buyer).update();
    }

    long heldByClient(long eventId, String client, int cartTtlSeconds) {
        return jdbc.statement(HELD_BY_CLIENT).set("event", eventId).set("client", client).set("ttl", cartTtlSeconds)
                .list(row -> row.getLong(1)).get(0);
    }

    long heldByBuyer(long eventId, String buyer, int cartTtlSeconds) {
        return jdbc.statement(HELD_BY_BUYER).set("event", eventId).set("buyer", buyer).set("ttl", cartTtlSeconds)
                .list(row -> row.getLong(1)).get(0);
    }

    Optional<Ticket> read(long eventId, String id, Instant opensAt) {
        return jdbc.statement(READ).set("id", id).set("event", eventId).set("opens_at", opensAt)
                .list(QueueTickets::ticket).stream().findFirst();
    }

    /**
     * The ticket whose admission opened the cart of the event; empty when none did (opened while the room was off)
     * or there is no such cart (which then answers 404).
     */
    Optional<String> admissionOf(long eventId, String cartId) {
        return jdbc.statement(CART_TICKET).set("cart", cartId).set("event", eventId).list(row -> row.getString(1))
                .stream().filter(Objects::nonNull).findFirst();
    }

    List<Long> openRooms() {
        return jdbc.statement(OPEN_ROOMS).list(row -> row.getLong(1));
    }

    /** An open room's admission rate and opening time (null: open since it was enabled). */
    record Room(int perMinute, Instant opensAt) {
    }

    /** In the caller's transaction: the room, if it is open and no other replica is admitting it. */
    Optional<Room> takeTurn(long eventId) {
        return jdbc.statement(TAKE_TURN).set("event", eventId)
                .list(row -> new Room(row.getInt(1), Jdbc.instant(row, 2))).stream().findFirst();
    }

    Slots slots(long eventId) {
        return jdbc.statement(LAST_SLOT).set("event", eventId)
                .list(row -> new Slots(Jdbc.instant(row, 1), Jdbc.instant(row, 2))).get(0);
    }

    /** Admits up to {@code count} tickets, the n-th at {@code after + n * spacing}; returns how many. */
    int admit(long eventId, int count, Instant after, Duration spacing) {
        return jdbc.statement(ADMIT).set("event", eventId).set("count", count).set("after", after)
                .set("spacing", spacing.toNanos() / 1e9).update();
    }

    private static Ticket ticket(ResultSet row) throws SQLException {
        return new Ticket(row.getString(1), Jdbc.instant(row, 2), row.getLong(3));
    }
}

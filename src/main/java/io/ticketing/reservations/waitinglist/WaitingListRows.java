package io.ticketing.reservations.waitinglist;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;

/** Every statement of the waiting list, on plain JDBC, returning records. */
@ApplicationScoped
class WaitingListRows {

    private static final String COLUMNS = "e.id, e.seq, e.event_id, e.item_id, e.quantity, e.email, e.buyer,"
            + " e.priority, e.status, e.version, e.created_at, v.code, v.valid_until";
    private static final String WITH_OFFER = " LEFT JOIN vouchers v ON v.id = e.voucher_id";

    private static final String INSERT = """
            WITH e AS (INSERT INTO waiting_list_entries (id, event_id, item_id, quantity, email, buyer, client)
                       VALUES (:id, :event, :item, :quantity, :email, :buyer, :client) RETURNING *)
            SELECT\s""" + COLUMNS + " FROM e" + WITH_OFFER;
    private static final String FIND = "SELECT " + COLUMNS + " FROM waiting_list_entries e" + WITH_OFFER
            + " WHERE e.id = :id AND e.event_id = :event";
    /** The entry's row, locked: a cancel and an offer of one entry run one after the other. */
    private static final String LOCK = FIND + " FOR UPDATE OF e";
    /** The waiting entries of the same item ahead of one: higher priority, or the same and earlier. */
    private static final String POSITION = """
            SELECT count(*) FROM waiting_list_entries w
            WHERE w.item_id = :item AND w.status = 'waiting'
              AND (w.priority > :priority OR w.priority = :priority AND w.seq < :seq)""";
    /** The entries of one client, or one buyer, still open: waiting, or holding an offer (contract section 9). */
    private static final String OPEN_OF_CLIENT = """
            SELECT count(*) FROM waiting_list_entries
            WHERE event_id = :event AND client = :client AND status IN ('waiting', 'offered')""";
    private static final String OPEN_OF_BUYER = """
            SELECT count(*) FROM waiting_list_entries
            WHERE event_id = :event AND buyer = :buyer AND status IN ('waiting', 'offered')""";
    private static final String LIST = "SELECT " + COLUMNS + " FROM waiting_list_entries e" + WITH_OFFER
            + " WHERE e.event_id = :event AND e.seq > :after";
    private static final String CANCEL = """
            UPDATE waiting_list_entries SET status = 'canceled', version = version + 1 WHERE id = :id""";
    /** An offer canceled with its entry stops blocking now; holds taken with it count as any other from then. */
    private static final String END_OFFER = """
            UPDATE vouchers SET valid_until = now(), version = version + 1
            WHERE id = (SELECT voucher_id FROM waiting_list_entries WHERE id = :id)
              AND (valid_until IS NULL OR valid_until > now())""";
    private static final String SET_PRIORITY = """
            UPDATE waiting_list_entries SET priority = :priority, version = version + 1 WHERE id = :id""";

    /** An entry as stored, with its offer's voucher code and deadline once it has one. */
    record Entry(String id, long seq, long eventId, long itemId, int quantity, String email, String buyer,
            int priority, Status status, long version, Instant createdAt, String voucherCode, Instant offeredUntil) {
    }

    enum Status {
        WAITING, OFFERED, REDEEMED, EXPIRED, CANCELED;

        String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Status of(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }

    private final Jdbc jdbc;

    WaitingListRows(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** A new entry of {@code client} (its address) and {@code buyer} (null: none). */
    Entry insert(String id, long eventId, long itemId, int quantity, String email, String buyer, String client) {
        return jdbc.statement(INSERT).set("id", id).set("event", eventId).set("item", itemId)
                .set("quantity", quantity).set("email", email).set("buyer", buyer).set("client", client)
                .list(WaitingListRows::entry).get(0);
    }

    long openOfClient(long eventId, String client) {
        return jdbc.statement(OPEN_OF_CLIENT).set("event", eventId).set("client", client).list(row -> row.getLong(1))
                .get(0);
    }

    long openOfBuyer(long eventId, String buyer) {
        return jdbc.statement(OPEN_OF_BUYER).set("event", eventId).set("buyer", buyer).list(row -> row.getLong(1))
                .get(0);
    }

    Optional<Entry> find(long eventId, String id) {
        return jdbc.statement(FIND).set("id", id).set("event", eventId).list(WaitingListRows::entry).stream()
                .findFirst();
    }

    Optional<Entry> lock(long eventId, String id) {
        return jdbc.statement(LOCK).set("id", id).set("event", eventId).list(WaitingListRows::entry).stream()
                .findFirst();
    }

    long position(Entry entry) {
        return jdbc.statement(POSITION).set("item", entry.itemId()).set("priority", entry.priority())
                .set("seq", entry.seq()).list(row -> row.getLong(1)).get(0);
    }

    /** Oldest first by {@code seq}, which never changes: a page of entries with the given status and item. */
    List<Entry> list(long eventId, Status status, Long itemId, long after, int limit) {
        StringBuilder sql = new StringBuilder(LIST);
        if (status != null) {
            sql.append(" AND e.status = :status");
        }
        if (itemId != null) {
            sql.append(" AND e.item_id = :item");
        }
        sql.append(" ORDER BY e.seq LIMIT :limit");
        Jdbc.Statement statement = jdbc.statement(sql.toString()).set("event", eventId).set("after", after)
                .set("limit", limit);
        if (status != null) {
            statement.set("status", status.value());
        }
        if (itemId != null) {
            statement.set("item", itemId);
        }
        return statement.list(WaitingListRows::entry);
    }

    /** Cancels the locked entry and ends its offer, if it has one that still runs, in one round trip. */
    void cancel(String id) {
        Jdbc.RoundTrip writes = jdbc.roundTrip();
        writes.add(jdbc.statement(END_OFFER).set("id", id));
        writes.add(jdbc.statement(CANCEL).set("id", id));
        writes.send();
    }

    void setPriority(String id, int priority) {
        jdbc.statement(SET_PRIORITY).set("id", id).set("priority", priority).update();
    }

    static Entry entry(ResultSet row) throws SQLException {
        return new Entry(row.getString(1), row.getLong(2), row.getLong(3), row.getLong(4), row.getInt(5),
                row.getString(6), row.getString(7), row.getInt(8), Status.of(row.getString(9)), row.getLong(10),
                Jdbc.instant(row, 11), row.getString(12), Jdbc.instant(row, 13));
    }
}

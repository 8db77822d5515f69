package io.ticketing.reservations.checkin;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;

/**
 * Every statement of check-in (contract section 14), on plain JDBC. A scan is two round trips: the first claims its
 * nonce, locks the ticket's position and reads where it stands; the second writes the result.
 *
 * <p>The position's row lock ({@link #ticketLock}) is what makes a ticket enter once at a time: scans of one ticket
 * at any number of gates, on any list, run one after the other, each reading the state the one before it left, as
 * pretix's check-in locks the position. A flow that gives a position a new secret (a transfer, contract section 14)
 * must take the same row lock, so that a scan sees the ticket before or after it. Nothing else is locked: scans of
 * different tickets never wait for each other, and never for a sale.
 */
@ApplicationScoped
public class CheckinRows {

    /** What a scan needs of its list; none if the list is not the event's. */
    private static final String LIST = """
            SELECT items, date_id, allow_pending, allow_multiple_entries, allow_entry_after_exit, name
            FROM checkin_lists WHERE id = :list AND event_id = :event""";
    /**
     * The scan's nonce, claimed for the list: none returned if a scan with it came before. One with it still in
     * flight makes this wait for its end (the unique index), so a repeat is answered the first's result, never a
     * second judgement.
     */
    private static final String CLAIM_NONCE = """
            INSERT INTO checkin_scans (list_id, nonce, type, scanned_at, request_hash)
            SELECT id, CAST(:nonce AS text), CAST(:type AS text), CAST(:scanned AS timestamptz),
              sha256(convert_to(CAST(:type AS text) || ' ' || CAST(:secret AS text), 'UTF8'))
            FROM checkin_lists WHERE id = :list AND event_id = :event
            ON CONFLICT (list_id, nonce) DO NOTHING RETURNING id""";
    private static final String TICKET_COLUMNS = """
            p.id, p.item_id, coalesce(s.guid, p.pass_seat_guid), p.date_id""";
    /** The ticket with this secret in the event, and its order's status; locked by {@link #ticketLock}. */
    private static final String TICKET = "SELECT " + TICKET_COLUMNS + """
            , o.status FROM order_positions p JOIN orders o ON o.id = p.order_id LEFT JOIN seats s ON s.id = p.seat_id
            WHERE p.secret = :secret AND o.event_id = :event""";
    /**
     * Where the ticket stands on the list. A statement after {@link #TICKET}'s, so that it sees what the scan that
     * held the lock before committed.
     */
    private static final String STATE = """
            SELECT inside, entries FROM checkin_states
            WHERE list_id = :list AND position_id = (SELECT id FROM order_positions WHERE secret = :secret)""";
    /**
     * The first scan with the nonce, as it was answered, with its ticket as it is now, and whether it was of the same
     * ticket and type as this one.
     */
    private static final String FIRST_SCAN = """
            SELECT sc.request_hash = sha256(convert_to(CAST(:type AS text) || ' ' || CAST(:secret AS text), 'UTF8')),
              sc.result, """ + TICKET_COLUMNS + """
             FROM checkin_scans sc LEFT JOIN order_positions p ON p.id = sc.position_id
              LEFT JOIN orders o ON o.id = p.order_id LEFT JOIN seats s ON s.id = p.seat_id
            WHERE sc.list_id = :list AND sc.nonce = :nonce""";
    /** An ok scan: the ticket's new state, and the scan with the state's count of changes (its {@code seq}). */
    private static final String PASS = """
            WITH changed AS (
              INSERT INTO checkin_states AS s (list_id, position_id, inside, entries, seq)
              VALUES (:list, :position, :entering, CASE WHEN :entering THEN 1 ELSE 0 END, 1)
              ON CONFLICT (list_id, position_id) DO UPDATE
                SET inside = excluded.inside, entries = s.entries + excluded.entries, seq = s.seq + 1
              RETURNING seq)
            UPDATE checkin_scans SET result = 'ok', position_id = :position, seq = (SELECT seq FROM changed)
            WHERE id = :scan""";
    private static final String REFUSE = """
            UPDATE checkin_scans SET result = :result, position_id = :position WHERE id = :scan""";
    /**
     * A list's counts: the tickets valid on it (paid, and pending where it allows them; of its items, on its date or
     * passes) and those inside now, of the tickets that still exist (an order change may cancel one inside).
     */
    private static final String COUNTS = """
            SELECT (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                    WHERE o.event_id = :event AND (o.status = 'paid' OR o.status = 'pending' AND :pending)
                      AND (CAST(:items AS bigint[]) IS NULL OR p.item_id = ANY(CAST(:items AS bigint[])))
                      AND (CAST(:date AS bigint) IS NULL OR p.date_id = :date OR p.date_id IS NULL)),
                   (SELECT count(*) FROM checkin_states s
                    WHERE s.list_id = :list AND s.inside
                      AND EXISTS (SELECT 1 FROM order_positions p WHERE p.id = s.position_id))""";
    private static final String DELETE_STATES = "DELETE FROM checkin_states WHERE list_id = :list";
    private static final String DELETE_SCANS = "DELETE FROM checkin_scans WHERE list_id = :list";

    /** A list as a scan judges by it. */
    record ListRules(List<Long> items, Long dateId, boolean allowPending, boolean allowMultipleEntries,
            boolean allowEntryAfterExit, String name) {
    }

    /** A ticket as a scan judges it, without its secret; {@code status} its order's. */
    record Ticket(long positionId, long itemId, String seatGuid, Long dateId, String status) {
    }

    /** Where a ticket stands on a list: never scanned is outside with no entry. */
    record State(boolean inside, int entries) {

        static final State NEVER_SCANNED = new State(false, 0);
    }

    /** The first round trip of a scan. {@code scanId} null: the nonce came before, and {@code first} is its answer. */
    record Read(Optional<ListRules> list, Long scanId, Optional<Ticket> ticket, State state,
            Optional<FirstScan> first) {
    }

    /**
     * A scan answered before: whether it was of the same ticket and type, its result and its ticket (none for
     * {@code unknown}).
     */
    record FirstScan(boolean same, String result, Optional<Ticket> ticket) {
    }

    record Counts(long positions, long inside) {
    }

    private final Jdbc jdbc;

    CheckinRows(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The clause that locks the ticket's row: {@code FOR NO KEY UPDATE}, which a scan of the same ticket waits for and
     * a sale, reading the row, does not. Only the tests' lock-off twin takes it away, to show what it prevents.
     */
    protected String ticketLock() {
        return " FOR NO KEY UPDATE OF p";
    }

    Read read(long eventId, long listId, String nonce, String type, Instant scannedAt, String secret) {
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        Jdbc.Rows<ListRules> list = reads.add(jdbc.statement(LIST).set("list", listId).set("event", eventId)
                .reading(row -> new ListRules(row.getArray(1) == null ? null : Jdbc.longs(row, 1),
                        Jdbc.nullableLong(row, 2), row.getBoolean(3),
                        row.getBoolean(4), row.getBoolean(5), row.getString(6))));
        Jdbc.Rows<Long> claimed = reads.add(jdbc.statement(CLAIM_NONCE).set("list", listId).set("event", eventId)
                .set("nonce", nonce).set("type", type).set("scanned", scannedAt).set("secret", secret)
                .reading(row -> row.getLong(1)));
        Jdbc.Rows<Ticket> ticket = reads.add(ticketQuery(eventId, secret));
        Jdbc.Rows<State> state = reads.add(stateQuery(listId, secret));
        Jdbc.Rows<FirstScan> first = reads.add(jdbc.statement(FIRST_SCAN).set("list", listId).set("nonce", nonce)
                .set("type", type).set("secret", secret)
                .reading(row -> new FirstScan(row.getBoolean(1), row.getString(2),
                        row.getObject(3) == null ? Optional.empty() : Optional.of(ticket(row, 2, null)))));
        reads.send();
        return new Read(list.first(), claimed.first().orElse(null), ticket.first(),
                state.first().orElse(State.NEVER_SCANNED), first.first());
    }

    /**
     * The ticket and where it stands, looked for once more. An order change writes a changed position anew under its
     * id and secret: a scan that waited for the change's lock finds the old row gone, and only a statement begun after
     * the change committed sees the new one.
     */
    Optional<Read> readAgain(long listId, Read read, long eventId, String secret) {
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        Jdbc.Rows<Ticket> ticket = reads.add(ticketQuery(eventId, secret));
        Jdbc.Rows<State> state = reads.add(stateQuery(listId, secret));
        reads.send();
        return ticket.first().map(found -> new Read(read.list(), read.scanId(), Optional.of(found),
                state.first().orElse(State.NEVER_SCANNED), read.first()));
    }

    private Jdbc.Query<Ticket> ticketQuery(long eventId, String secret) {
        return jdbc.statement(TICKET + ticketLock()).set("secret", secret).set("event", eventId)
                .reading(row -> ticket(row, 0, row.getString(5)));
    }

    private Jdbc.Query<State> stateQuery(long listId, String secret) {
        return jdbc.statement(STATE).set("list", listId).set("secret", secret)
                .reading(row -> new State(row.getBoolean(1), row.getInt(2)));
    }

    /** Records the scan's result; an ok one changes the ticket's state on the list in the same statement. */
    void write(long listId, long scanId, String result, Ticket ticket, boolean entering) {
        Long position = ticket == null ? null : ticket.positionId();
        if ("ok".equals(result)) {
            jdbc.statement(PASS).set("list", listId).set("position", position).set("entering", entering)
                    .set("scan", scanId).update();
        } else {
            jdbc.statement(REFUSE).set("result", result).set("position", position).set("scan", scanId).update();
        }
    }

    Counts counts(long eventId, CheckinList list) {
        return jdbc.statement(COUNTS).set("event", eventId).set("list", list.id).set("pending", list.allowPending)
                .set("items", list.items == null ? null : list.items.toArray(Long[]::new)).set("date", list.dateId)
                .list(row -> new Counts(row.getLong(1), row.getLong(2))).get(0);
    }

    /** What a list's scans left: no foreign key takes them (V27). */
    void deleteScansOf(long listId) {
        jdbc.statement(DELETE_STATES).set("list", listId).update();
        jdbc.statement(DELETE_SCANS).set("list", listId).update();
    }

    private static Ticket ticket(ResultSet row, int from, String status) throws SQLException {
        return new Ticket(row.getLong(from + 1), row.getLong(from + 2), row.getString(from + 3),
                Jdbc.nullableLong(row, from + 4), status);
    }
}

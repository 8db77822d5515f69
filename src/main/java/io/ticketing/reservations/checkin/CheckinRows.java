package io.ticketing.reservations.checkin;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.PersistenceException;

import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.problem.ApiException;

/**
 * Every statement of check-in (contract section 14), on plain JDBC. A scan is one round trip and its commit: it claims
 * its nonce, locks the ticket's position, then judges the ticket and writes the result in one statement after the
 * lock ({@link #JUDGE}).
 *
 * <p>The position's row lock ({@link #ticketLock}) is what makes a ticket enter once at a time: scans of one ticket
 * at any number of gates, on any list, run one after the other, each judging by the state the one before it left, as
 * pretix's check-in locks the position. A flow that gives a position a new secret (a transfer, contract section 14)
 * takes the same row lock, so that a scan sees the ticket before or after it. Nothing else is locked: scans of
 * different tickets never wait for each other, and never for a sale.
 */
@ApplicationScoped
public class CheckinRows {

    /**
     * The scan's nonce, claimed for the list: nothing inserted if a scan with it came before. One with it still in
     * flight makes this wait for its end (the unique index), so a repeat is answered the first's result, never a
     * second judgement.
     */
    private static final String CLAIM_NONCE = """
            INSERT INTO checkin_scans (list_id, nonce, type, scanned_at, request_hash)
            SELECT id, CAST(:nonce AS text), CAST(:type AS text), CAST(:scanned AS timestamptz),
              sha256(convert_to(CAST(:type AS text) || ' ' || CAST(:secret AS text), 'UTF8'))
            FROM checkin_lists WHERE id = :list AND event_id = :event
            ON CONFLICT (list_id, nonce) DO NOTHING""";
    /** SQLSTATE of {@link #JUDGE}'s lock that would have waited. */
    private static final String LOCK_NOT_AVAILABLE = "55P03";
    /** The ticket with this secret in the event, locked by {@link #ticketLock}: the lock is the point. */
    private static final String LOCK_TICKET = """
            SELECT p.id FROM order_positions p JOIN orders o ON o.id = p.order_id
            WHERE p.secret = :secret AND o.event_id = :event""";
    /**
     * The scan this transaction claimed, judged as pretix's check-in judges (the first rule that applies, in this
     * order) and written: the result on the scan, and for an ok one the ticket's new state on the list, with the
     * state's count of changes on the scan ({@code seq}). A statement after {@link #LOCK_TICKET}'s, so that it judges
     * by the state the scan that held the lock before committed. Nothing returned if this transaction claimed no scan.
     *
     * <p>The rules: no ticket of the event has the secret: {@code unknown}. An exit is ok for any ticket, inside or
     * not: a gate letting someone out is never refused, even when the order was canceled, or the list changed, while
     * its holder was inside, who would otherwise count as inside for good. Then: a canceled or expired order,
     * {@code canceled}; an item not on the list, or a date other than the list's (a pass, of no date, is on each),
     * {@code not_on_list}; a pending order where the list wants paid ones, {@code unpaid}; unless the list allows
     * multiple entries, an entry while inside, or again after an exit where the list allows no re-entry,
     * {@code already_inside} (section 14 has no other name for a used ticket); else {@code ok}.
     *
     * <p>The ticket is locked here too, without waiting: an order change writes a changed position anew under its id
     * and secret, so a scan that waited for the change's lock finds the old row gone in {@link #LOCK_TICKET} and the
     * new one only here. Should another gate hold that one, waiting would judge by a state read before that gate
     * committed; the scan fails instead (503, retried with its nonce).
     */
    private static final String JUDGE = """
            WITH scan AS (
              SELECT id FROM checkin_scans WHERE list_id = :list AND nonce = :nonce AND result IS NULL),
            list AS (
              SELECT id, name, items, date_id, allow_pending, allow_multiple_entries, allow_entry_after_exit
              FROM checkin_lists WHERE id = :list AND event_id = :event),
            ticket AS (
              SELECT p.id, p.item_id, coalesce(s.guid, p.pass_seat_guid) AS seat_guid, p.date_id, o.status
              FROM order_positions p JOIN orders o ON o.id = p.order_id LEFT JOIN seats s ON s.id = p.seat_id
              WHERE p.secret = :secret AND o.event_id = :event %s),
            judged AS (
              SELECT scan.id AS scan_id, l.name, t.id AS position_id, t.item_id, t.seat_guid, t.date_id, CASE
                WHEN t.id IS NULL THEN 'unknown'
                WHEN NOT CAST(:entering AS boolean) THEN 'ok'
                WHEN t.status NOT IN ('pending', 'paid') THEN 'canceled'
                WHEN l.items IS NOT NULL AND NOT t.item_id = ANY(l.items)
                  OR l.date_id IS NOT NULL AND t.date_id IS NOT NULL AND l.date_id <> t.date_id THEN 'not_on_list'
                WHEN t.status = 'pending' AND NOT l.allow_pending THEN 'unpaid'
                WHEN l.allow_multiple_entries THEN 'ok'
                WHEN coalesce(st.inside, false) OR coalesce(st.entries, 0) > 0 AND NOT l.allow_entry_after_exit
                  THEN 'already_inside'
                ELSE 'ok' END AS result
              FROM scan CROSS JOIN list l LEFT JOIN ticket t ON true
              LEFT JOIN checkin_states st ON st.list_id = l.id AND st.position_id = t.id),
            changed AS (
              INSERT INTO checkin_states AS s (list_id, position_id, inside, entries, seq)
              SELECT :list, position_id, CAST(:entering AS boolean),
                CASE WHEN CAST(:entering AS boolean) THEN 1 ELSE 0 END, 1
              FROM judged WHERE result = 'ok'
              ON CONFLICT (list_id, position_id) DO UPDATE
                SET inside = excluded.inside, entries = s.entries + excluded.entries, seq = s.seq + 1
              RETURNING seq)
            UPDATE checkin_scans sc SET result = j.result, position_id = j.position_id,
              seq = CASE WHEN j.result = 'ok' THEN (SELECT seq FROM changed) END
            FROM judged j WHERE sc.id = j.scan_id
            RETURNING j.result, j.name, j.position_id, j.item_id, j.seat_guid, j.date_id""";
    /**
     * A scan answered before (this one claimed no nonce): its result and list's name, its ticket as it is now, and
     * whether it was of the same ticket and type; nothing if no such scan or the list is not the event's.
     */
    private static final String FIRST_SCAN = """
            SELECT sc.result, l.name, p.id, p.item_id, coalesce(s.guid, p.pass_seat_guid), p.date_id,
              sc.request_hash = sha256(convert_to(CAST(:type AS text) || ' ' || CAST(:secret AS text), 'UTF8'))
            FROM checkin_lists l JOIN checkin_scans sc ON sc.list_id = l.id AND sc.nonce = :nonce
              LEFT JOIN order_positions p ON p.id = sc.position_id LEFT JOIN seats s ON s.id = p.seat_id
            WHERE l.id = :list AND l.event_id = :event""";
    /**
     * A list's counts: the tickets valid on it (paid, and pending where it allows them; of its items, on its date or
     * passes) and those inside now, of the tickets that still exist (an order change may no longer cancel one inside,
     * contract section 3; one canceled so before stays out of the count).
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

    /** A ticket as a scan shows it, without its secret. */
    record Ticket(long positionId, long itemId, String seatGuid, Long dateId) {
    }

    /** A scan's answer: its result, its ticket (none for {@code unknown}) and the list's name. */
    record Judged(String result, Optional<Ticket> ticket, String listName) {
    }

    /** A scan answered before, and whether it was of the same ticket and type as the one that repeats its nonce. */
    record FirstScan(Judged answer, boolean same) {
    }

    record Counts(long positions, long inside) {
    }

    private final Jdbc jdbc;
    /** {@link #LOCK_TICKET} and {@link #JUDGE} with {@link #ticketLock}, composed once rather than on every scan. */
    private String lockTicket;
    private String judge;

    CheckinRows(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @PostConstruct
    void composeStatements() {
        lockTicket = LOCK_TICKET + ticketLock();
        judge = JUDGE.formatted(ticketLock().isEmpty() ? "" : ticketLock() + " NOWAIT");
    }

    /**
     * The clause that locks the ticket's row: {@code FOR NO KEY UPDATE}, which a scan of the same ticket waits for and
     * a sale, reading the row, does not. Only the tests' lock-off twin takes it away, to show what it prevents.
     */
    protected String ticketLock() {
        return " FOR NO KEY UPDATE OF p";
    }

    /**
     * Claims the nonce, locks the ticket, judges and writes, in one round trip; none if the nonce came before or the
     * list is not the event's ({@link #firstScan} then says which).
     */
    Optional<Judged> scan(long eventId, long listId, ScanRequest request) {
        Jdbc.RoundTrip scan = jdbc.roundTrip();
        scan.add(jdbc.statement(CLAIM_NONCE).set("list", listId).set("event", eventId).set("nonce", request.nonce())
                .set("type", request.type()).set("scanned", request.scannedAt()).set("secret", request.secret()));
        scan.add(jdbc.statement(lockTicket).set("secret", request.secret()).set("event", eventId));
        Jdbc.Rows<Judged> judged = scan.add(jdbc.statement(judge).set("list", listId)
                .set("event", eventId).set("nonce", request.nonce()).set("secret", request.secret())
                .set("entering", request.entering()).reading(row -> judged(row)));
        try {
            scan.send();
        } catch (PersistenceException failed) {
            if (failed.getCause() instanceof SQLException cause && LOCK_NOT_AVAILABLE.equals(cause.getSQLState())) {
                throw new ApiException(503, "lock_timeout", "Too busy", "Another gate is scanning this ticket right"
                        + " now; nothing was recorded: send the scan again with its nonce.")
                        .retryAfter(Duration.ofSeconds(1));
            }
            throw failed;
        }
        return judged.first();
    }

    /** The first scan with the request's nonce on the list; none if there is none, or the list is not the event's. */
    Optional<FirstScan> firstScan(long eventId, long listId, ScanRequest request) {
        return jdbc.statement(FIRST_SCAN).set("list", listId).set("event", eventId).set("nonce", request.nonce())
                .set("type", request.type()).set("secret", request.secret())
                .list(row -> new FirstScan(judged(row), row.getBoolean(7))).stream().findFirst();
    }

    /** A {@link Judged} from a row of result, list name, then the ticket's id, item, seat guid and date. */
    private static Judged judged(ResultSet row) throws SQLException {
        Optional<Ticket> ticket = row.getObject(3) == null
                ? Optional.empty()
                : Optional.of(new Ticket(row.getLong(3), row.getLong(4), row.getString(5), Jdbc.nullableLong(row, 6)));
        return new Judged(row.getString(1), ticket, row.getString(2));
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
}

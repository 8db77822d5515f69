package io.ticketing.reservations.support;

import java.util.ArrayList;
import java.util.List;

/**
 * The promises of contract section 14, from the rows in SQL of their own: where each ticket stands on a list is what
 * its ok scans say when replayed in order, no ticket entered twice without an exit between on a list that allows one
 * entry at a time, every position has a secret of its own, and a ticket inside is still a ticket (section 3).
 */
final class CheckinOracle {

    private static final String OK_SCANS = """
            WITH lists AS (SELECT l.id, l.allow_multiple_entries FROM checkin_lists l JOIN events e ON e.id = l.event_id
                           WHERE e.slug = ?1),
            ok AS (SELECT sc.list_id, sc.position_id, sc.type, sc.seq,
                     lag(sc.type) OVER (PARTITION BY sc.list_id, sc.position_id ORDER BY sc.seq) AS before
                   FROM checkin_scans sc JOIN lists ON lists.id = sc.list_id WHERE sc.result = 'ok')
            """;
    /** Each list's states against the replay of its ok scans: inside, entries, and one seq per ok scan. */
    private static final String STATES_NOT_AS_SCANNED = OK_SCANS
            + """
                    , replay AS (
                      SELECT list_id, position_id, count(*) AS seq, count(DISTINCT seq) AS distinct_seqs, max(seq) AS last_seq,
                        count(*) FILTER (WHERE type = 'entry') AS entries,
                        (array_agg(type ORDER BY seq DESC))[1] = 'entry' AS inside
                      FROM ok GROUP BY list_id, position_id),
                    states AS (SELECT s.* FROM checkin_states s JOIN lists ON lists.id = s.list_id)
                    SELECT 'position ' || coalesce(s.position_id, r.position_id) || ' on list ' || coalesce(s.list_id, r.list_id)
                      || ' stands ' || coalesce(CAST(s.inside AS text) || '/' || s.entries || '/' || s.seq, 'nowhere')
                      || ', its scans say ' || coalesce(CAST(r.inside AS text) || '/' || r.entries || '/' || r.seq, 'nothing')
                    FROM states s FULL JOIN replay r ON r.list_id = s.list_id AND r.position_id = s.position_id
                    WHERE s.list_id IS NULL OR r.list_id IS NULL OR r.distinct_seqs <> r.seq OR r.last_seq <> r.seq
                       OR (s.inside, s.entries, s.seq) IS DISTINCT FROM (r.inside, CAST(r.entries AS int), r.seq)""";
    private static final String ENTERED_TWICE = OK_SCANS + """
            SELECT 'position ' || ok.position_id || ' entered list ' || ok.list_id || ' again while inside'
            FROM ok JOIN lists ON lists.id = ok.list_id
            WHERE ok.type = 'entry' AND ok.before = 'entry' AND NOT lists.allow_multiple_entries""";
    private static final String SECRETS_SHARED_OR_SHORT = """
            SELECT 'position ' || p.id || ' has a secret of ' || length(p.secret) || ' characters or another''s'
            FROM order_positions p JOIN orders o ON o.id = p.order_id JOIN events e ON e.id = o.event_id
            WHERE e.slug = ?1 AND (length(p.secret) < 32
              OR EXISTS (SELECT 1 FROM order_positions q WHERE q.secret = p.secret AND q.id <> p.id))""";

    /** Section 3: a ticket inside on a list is never changed or canceled away by an order change. */
    private static final String INSIDE_WITHOUT_A_TICKET = """
            SELECT 'position ' || s.position_id || ' is inside on list ' || s.list_id || ' but is no ticket any more'
            FROM checkin_states s JOIN checkin_lists l ON l.id = s.list_id JOIN events e ON e.id = l.event_id
            WHERE e.slug = ?1 AND s.inside AND NOT EXISTS (SELECT 1 FROM order_positions p WHERE p.id = s.position_id)""";

    private CheckinOracle() {
    }

    static List<String> brokenPromises(Sql sql, String event) {
        List<String> broken = new ArrayList<>();
        for (String promise : List.of(STATES_NOT_AS_SCANNED, ENTERED_TWICE, SECRETS_SHARED_OR_SHORT,
                INSIDE_WITHOUT_A_TICKET)) {
            sql.rows(promise, event).forEach(row -> broken.add(String.valueOf(row)));
        }
        return broken;
    }
}

package io.ticketing.reservations.organizer;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.auth.ApiTokens;
import io.ticketing.reservations.jdbc.Jdbc;

/** Every statement of organizers' API tokens, on plain JDBC. The secret never comes back: only its hash is kept. */
@ApplicationScoped
class TokenRows {

    private static final String INSERT = """
            INSERT INTO api_tokens (organizer_id, name, scope, events, prefix, secret_hash, expires_at, channel)
            VALUES (:organizer, :name, :scope, :events, :prefix, :hash, :expires, :channel)
            """ + " RETURNING " + ApiTokens.COLUMNS + ", created_at";
    /** A token's view: its events as slugs, in the order they were made. */
    private static final String VIEW_COLUMNS = """
            t.id, t.name, t.scope,
              CASE WHEN t.events IS NULL THEN NULL
                   ELSE ARRAY(SELECT e.slug FROM events e WHERE e.id = ANY(t.events) ORDER BY e.id) END,
              t.expires_at, t.prefix, t.created_at, t.last_used_at, t.channel""";
    private static final String PAGE = "SELECT " + VIEW_COLUMNS + """
             FROM api_tokens t WHERE t.organizer_id = :organizer AND t.revoked_at IS NULL AND t.id > :after
            ORDER BY t.id LIMIT :limit""";
    /** Revokes it: every replica hears of it at its next read of changed tokens ({@link ApiTokens}). */
    private static final String REVOKE = """
            UPDATE api_tokens SET revoked_at = now(), changed_at = clock_timestamp()
            WHERE id = :id AND organizer_id = :organizer AND revoked_at IS NULL
            """ + " RETURNING " + ApiTokens.COLUMNS;
    private static final String EVENTS_OF_ORGANIZER = """
            SELECT id FROM events WHERE organizer_id = :organizer AND slug = ANY(:slugs)""";

    private final Jdbc jdbc;

    TokenRows(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** A stored token as every replica will know it, and when it was made. */
    record Stored(ApiTokens.Entry entry, Instant createdAt) {
    }

    /** The token, stored as its hash. */
    Stored insert(long organizerId, OrganizerRequests.NewToken request, Set<Long> events, String channel,
            ApiTokens.Secret secret) {
        return jdbc.statement(INSERT).set("organizer", organizerId).set("name", request.name().strip())
                .set("scope", request.scope()).set("events", events == null ? null : events.toArray(Long[]::new))
                .set("prefix", secret.prefix()).set("hash", secret.hash()).set("expires", request.expiresAt())
                .set("channel", channel).list(row -> new Stored(ApiTokens.Entry.read(row), Jdbc.instant(row, 11)))
                .get(0);
    }

    List<TokenView> page(long organizerId, long after, int limit) {
        return jdbc.statement(PAGE).set("organizer", organizerId).set("after", after).set("limit", limit)
                .list(TokenRows::view);
    }

    /** The revoked token as every replica will know it, or empty if the organizer has no such token in use. */
    Optional<ApiTokens.Entry> revoke(long organizerId, long id) {
        return jdbc.statement(REVOKE).set("id", id).set("organizer", organizerId)
                .list(ApiTokens.Entry::read).stream().findFirst();
    }

    /** The ids of the organizer's events with these slugs. */
    List<Long> eventsOf(long organizerId, List<String> slugs) {
        return jdbc.statement(EVENTS_OF_ORGANIZER).set("organizer", organizerId)
                .set("slugs", slugs.toArray(String[]::new)).list(row -> row.getLong(1));
    }

    private static TokenView view(ResultSet row) throws SQLException {
        java.sql.Array events = row.getArray(4);
        return new TokenView(row.getLong(1), row.getString(2), row.getString(3),
                events == null ? null : List.of((String[]) events.getArray()), Jdbc.instant(row, 5),
                row.getString(6), Jdbc.instant(row, 7), Jdbc.instant(row, 8), row.getString(9), null);
    }
}

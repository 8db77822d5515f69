package io.ticketing.reservations.idempotency;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.jdbc.Jdbc;

/**
 * The stored keys. A key is claimed and its outcome recorded in the transaction of the change it guards, so both
 * commit together or not at all: a replica killed or a connection lost before the commit leaves no row, and the
 * retry runs; after it, the retry replays. While the request runs its row is uncommitted, and a retry waits for
 * it no longer than {@link #RUNNING_WAIT} before hearing that it still runs.
 */
@ApplicationScoped
class IdempotencyKeys {

    /** A first response is kept this long; after that the key may be used afresh. */
    static final Duration KEPT_FOR = Duration.ofHours(24);
    /** Long enough for a double click to be answered with the first click's response, short enough not to queue. */
    static final Duration RUNNING_WAIT = Duration.ofMillis(50);

    /** See migration V11 for what the function decides and why. */
    private static final String CLAIM = """
            SELECT outcome, request_hash, status, content_type, location, etag, body
            FROM claim_idempotency_key(:caller, :key, :hash, :wait_ms, :kept_s)""";

    private static final String RECORD = """
            UPDATE idempotency_keys SET status = :status, content_type = :type, location = :location, etag = :etag,
                   body = :body
            WHERE caller = :caller AND key = :key""";

    /** A refusal changed nothing and is recorded after its transaction rolled back, in one of its own. */
    private static final String RECORD_REFUSAL = """
            INSERT INTO idempotency_keys (caller, key, request_hash, status, content_type, body)
            VALUES (:caller, :key, :hash, :status, :type, :body) ON CONFLICT DO NOTHING""";

    interface Claim {
    }

    record Started() implements Claim {
    }

    record InFlight() implements Claim {
    }

    record Mismatch() implements Claim {
    }

    record Replay(int status, String contentType, String location, String etag, String body) implements Claim {
    }

    /** What a request answered, as it is kept for replays. */
    record Outcome(int status, String contentType, String location, String etag, String body) {
    }

    private final Jdbc jdbc;

    IdempotencyKeys(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    Claim claim(String caller, String key, String requestHash) {
        return jdbc.statement(CLAIM).set("caller", caller).set("key", key).set("hash", requestHash)
                .set("wait_ms", Math.toIntExact(RUNNING_WAIT.toMillis()))
                .set("kept_s", Math.toIntExact(KEPT_FOR.toSeconds())).list(row -> switch (row.getString(1)) {
                    case "started" -> new Started();
                    case "running" -> new InFlight();
                    default -> requestHash.equals(row.getString(2))
                            ? new Replay(row.getInt(3), row.getString(4), row.getString(5), row.getString(6),
                                    row.getString(7))
                            : new Mismatch();
                }).get(0);
    }

    /** In the transaction that claimed the key: the outcome commits with the change. */
    @Transactional(Transactional.TxType.MANDATORY)
    void record(String caller, String key, Outcome outcome) {
        jdbc.statement(RECORD).set("caller", caller).set("key", key).set("status", outcome.status())
                .set("type", outcome.contentType()).set("location", outcome.location()).set("etag", outcome.etag())
                .set("body", outcome.body()).update();
    }

    void recordRefusal(String caller, String key, String requestHash, Outcome outcome) {
        // Auto-commit: the refused request's transaction is over.
        jdbc.statement(RECORD_REFUSAL).set("caller", caller).set("key", key).set("hash", requestHash)
                .set("status", outcome.status()).set("type", outcome.contentType()).set("body", outcome.body())
                .update();
    }
}

package io.ticketing.reservations.idempotency;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.ProblemMapper;

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

    /** A key claimed by a batch whose request was refused or runs alone: as if never claimed. */
    private static final String FORGET = "DELETE FROM idempotency_keys WHERE caller = :caller AND key = :key";

    /** A refusal changed nothing and is recorded after its transaction rolled back, in one of its own. */
    private static final String RECORD_REFUSAL = """
            INSERT INTO idempotency_keys (caller, key, request_hash, status, content_type, body)
            VALUES (:caller, :key, :hash, :status, :type, :body) ON CONFLICT DO NOTHING""";

    /**
     * A refusal decided before its key was claimed, recorded if it is to be kept ({@code :kept}) and the key has no
     * record; it returns a row only if it wrote one. A record of the key's still running, uncommitted, is waited for.
     */
    private static final String RECORD_REFUSAL_IF_FREE = """
            INSERT INTO idempotency_keys (caller, key, request_hash, status, content_type, body)
            SELECT :caller, :key, :hash, :status, :type, :body WHERE :kept
            ON CONFLICT DO NOTHING RETURNING status""";

    /**
     * The answer a key recorded, while it is kept, in {@link #CLAIM}'s shape. Sent after the insert above, as a
     * statement of its own, it sees the record that insert waited for.
     */
    private static final String RECORDED = """
            SELECT 'stored', request_hash, status, content_type, location, etag, body FROM idempotency_keys
            WHERE caller = :caller AND key = :key AND created_at > now() - :kept_s * interval '1 second'""";

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
    private final ObjectMapper json;

    IdempotencyKeys(Jdbc jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    Claim claim(KeyedRequest request) {
        return claimQuery(request).list().get(0);
    }

    /** {@link #claim} for several requests, in one round trip; one claim each, in order. */
    @Transactional(Transactional.TxType.MANDATORY)
    List<Claim> claimEach(List<KeyedRequest> requests) {
        Jdbc.RoundTrip claims = jdbc.roundTrip();
        List<Jdbc.Rows<Claim>> rows = requests.stream().map(request -> claims.add(claimQuery(request))).toList();
        claims.send();
        return rows.stream().map(claim -> claim.all().get(0)).toList();
    }

    private Jdbc.Query<Claim> claimQuery(KeyedRequest request) {
        return jdbc.statement(CLAIM).set("caller", request.caller()).set("key", request.key())
                .set("hash", request.requestHash()).set("wait_ms", Math.toIntExact(RUNNING_WAIT.toMillis()))
                .set("kept_s", Math.toIntExact(KEPT_FOR.toSeconds())).reading(row -> claimOf(request, row));
    }

    /** A row in {@link #CLAIM}'s shape: outcome, request_hash, status, content_type, location, etag, body. */
    private static Claim claimOf(KeyedRequest request, ResultSet row) throws SQLException {
        return switch (row.getString(1)) {
            case "started" -> new Started();
            case "running" -> new InFlight();
            default -> request.requestHash().equals(row.getString(2))
                    ? new Replay(row.getInt(3), row.getString(4), row.getString(5), row.getString(6), row.getString(7))
                    : new Mismatch();
        };
    }

    /** In the transaction that claimed the key: the outcome commits with the change. */
    @Transactional(Transactional.TxType.MANDATORY)
    void record(KeyedRequest request, Response answer) {
        recording(request, outcome(answer)).update();
    }

    /**
     * In the transaction that claimed the keys, in one round trip: the answers of {@code answered} commit with their
     * changes, and the keys of {@code forgotten} (refused, or to run alone) are as if never claimed.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    void settleEach(Map<KeyedRequest, Response> answered, List<KeyedRequest> forgotten) {
        Jdbc.RoundTrip writes = jdbc.roundTrip();
        answered.forEach((request, answer) -> writes.add(recording(request, outcome(answer))));
        forgotten.forEach(request -> writes.add(
                jdbc.statement(FORGET).set("caller", request.caller()).set("key", request.key())));
        writes.send();
    }

    private Jdbc.Statement recording(KeyedRequest request, Outcome outcome) {
        return jdbc.statement(RECORD).set("caller", request.caller()).set("key", request.key())
                .set("status", outcome.status()).set("type", outcome.contentType())
                .set("location", outcome.location()).set("etag", outcome.etag()).set("body", outcome.body());
    }

    void recordRefusal(KeyedRequest request, Response refusal) {
        // Auto-commit: the refused request's transaction is over.
        Outcome outcome = outcome(refusal);
        jdbc.statement(RECORD_REFUSAL).set("caller", request.caller()).set("key", request.key())
                .set("hash", request.requestHash()).set("status", outcome.status())
                .set("type", outcome.contentType()).set("body", outcome.body()).update();
    }

    /**
     * For a request refused before its key was claimed: what its key recorded (a replay, or a reuse for another
     * request), if anything; else nothing, and the refusal is recorded if {@code kept}, in the same round trip.
     */
    Optional<Claim> recordedInstead(KeyedRequest request, Response refusal, boolean kept) {
        // Auto-commit, as for any refusal: the refused request has no transaction.
        Outcome outcome = outcome(refusal);
        Jdbc.RoundTrip trip = jdbc.roundTrip();
        Jdbc.Rows<Integer> refusalRecorded = trip.add(jdbc.statement(RECORD_REFUSAL_IF_FREE)
                .set("caller", request.caller()).set("key", request.key()).set("hash", request.requestHash())
                .set("status", outcome.status()).set("type", outcome.contentType()).set("body", outcome.body())
                .set("kept", kept).reading(row -> row.getInt(1)));
        Jdbc.Rows<Claim> recorded = trip.add(jdbc.statement(RECORDED).set("caller", request.caller())
                .set("key", request.key()).set("kept_s", Math.toIntExact(KEPT_FOR.toSeconds()))
                .reading(row -> claimOf(request, row)));
        trip.send();
        return refusalRecorded.all().isEmpty() ? recorded.first() : Optional.empty();
    }

    /** What a request whose key was claimed before is answered instead of running. */
    static Response answerInstead(Claim claim) {
        if (claim instanceof Replay replay) {
            return replay(replay);
        }
        if (claim instanceof Mismatch) {
            return ProblemMapper.respond(new ApiException(422, "idempotency_key_reused", "Unprocessable Content",
                    "This Idempotency-Key was used for a different request."));
        }
        return ProblemMapper.respond(new ApiException(409, "idempotency_key_in_use", "Conflict",
                "A request with this Idempotency-Key is still running; retry shortly.")
                .retryAfter(Duration.ofSeconds(1)));
    }

    private static Response replay(Replay replay) {
        Response.ResponseBuilder response = Response.status(replay.status()).header("Idempotent-Replayed", "true");
        if (replay.body() != null) {
            response.entity(replay.body())
                    .type(replay.contentType() == null ? MediaType.APPLICATION_JSON : replay.contentType());
        }
        if (replay.location() != null) {
            response.header(HttpHeaders.LOCATION, replay.location());
        }
        if (replay.etag() != null) {
            response.header(HttpHeaders.ETAG, replay.etag());
        }
        return response.build();
    }

    private Outcome outcome(Response response) {
        MediaType type = response.getMediaType();
        try {
            return new Outcome(response.getStatus(), type == null ? null : type.toString(),
                    response.getHeaderString(HttpHeaders.LOCATION), response.getHeaderString(HttpHeaders.ETAG),
                    response.hasEntity()
                            ? json.writeValueAsString(response.getEntity() instanceof ShownOnce secret
                                    ? secret.withoutSecret()
                                    : response.getEntity())
                            : null);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an answer that cannot be written as JSON", e);
        }
    }
}

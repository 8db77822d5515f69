package io.ticketing.reservations.idempotency;

import java.time.Duration;
import java.util.HexFormat;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ticketing.reservations.auth.Sha256;
import io.ticketing.reservations.locking.DurableTransactions;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.ProblemMapper;
import io.ticketing.reservations.problem.ValidationException;

/**
 * {@code Idempotency-Key}, per bearer token: the first request with a key runs and its response is kept for
 * 24 hours; the same key with the same request replays it, with another request gets 422, and while the first
 * still runs, 409 with {@code Retry-After}. Responses 409, 429 and 5xx are not kept, so a retry after a
 * {@code lock_timeout} or a sold-out answer runs again. "The same request" is the same endpoint with the same
 * path and the same body once parsed, so key order and white space do not matter.
 *
 * <p>Exactly once, whatever fails: the key is claimed, the request runs and its answer is recorded in one
 * transaction (the durable method the request calls joins it), so the change and the record of it commit
 * together. A request cut off before its commit leaves nothing, and its retry runs; one whose commit succeeded
 * is replayed, even if its answer never reached the client.
 */
@Idempotent
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
class IdempotencyInterceptor {

    static final String HEADER = "Idempotency-Key";

    /** What the request's transaction produced: how the key was found, and the answer if the request ran. */
    private record Ran(IdempotencyKeys.Claim claim, Response response) {
    }

    @Inject
    HttpHeaders headers;

    @Inject
    IdempotencyKeys keys;

    @Inject
    DurableTransactions transactions;

    @Inject
    ObjectMapper json;

    @AroundInvoke
    Object once(InvocationContext invocation) throws Exception {
        String key = invocation.getMethod().isAnnotationPresent(POST.class) ? headers.getHeaderString(HEADER) : null;
        if (key == null) {
            return invocation.proceed();
        }
        if (key.isBlank() || key.length() > 255) {
            throw new ValidationException(HEADER, "must be 1 to 255 characters");
        }
        String caller = sha256(headers.getHeaderString(HttpHeaders.AUTHORIZATION));
        String request = sha256(
                invocation.getMethod().toGenericString() + json.writeValueAsString(invocation.getParameters()));
        Ran ran;
        try {
            ran = transactions.forRequest(() -> runOnce(invocation, caller, key, request));
        } catch (ApiException refusal) {
            Response response = ProblemMapper.respond(refusal);
            if (kept(response.getStatus())) {
                keys.recordRefusal(caller, key, request, outcome(response));
            }
            return response;
        }
        if (ran.claim() instanceof IdempotencyKeys.Replay replay) {
            return replay(replay);
        }
        if (ran.claim() instanceof IdempotencyKeys.Mismatch) {
            throw new ApiException(422, "idempotency_key_reused", "Unprocessable Content",
                    "This Idempotency-Key was used for a different request.");
        }
        if (ran.claim() instanceof IdempotencyKeys.InFlight) {
            throw new ApiException(409, "idempotency_key_in_use", "Conflict",
                    "A request with this Idempotency-Key is still running; retry shortly.")
                    .retryAfter(Duration.ofSeconds(1));
        }
        return ran.response();
    }

    /** In the request's transaction: a refusal thrown from here rolls the claim back with everything else. */
    private Ran runOnce(InvocationContext invocation, String caller, String key, String request) throws Exception {
        IdempotencyKeys.Claim claim = keys.claim(caller, key, request);
        if (!(claim instanceof IdempotencyKeys.Started)) {
            return new Ran(claim, null);
        }
        Response response = (Response) invocation.proceed();
        if (kept(response.getStatus())) {
            keys.record(caller, key, outcome(response));
        } else {
            transactions.rollBack();
        }
        return new Ran(claim, response);
    }

    private static boolean kept(int status) {
        return status != 409 && status != 429 && status < 500;
    }

    private IdempotencyKeys.Outcome outcome(Response response) throws JsonProcessingException {
        MediaType type = response.getMediaType();
        return new IdempotencyKeys.Outcome(response.getStatus(), type == null ? null : type.toString(),
                response.getHeaderString(HttpHeaders.LOCATION), response.getHeaderString(HttpHeaders.ETAG),
                response.hasEntity() ? json.writeValueAsString(response.getEntity()) : null);
    }

    private static Response replay(IdempotencyKeys.Replay replay) {
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

    private static String sha256(String text) {
        return HexFormat.of().formatHex(Sha256.of(String.valueOf(text)));
    }
}

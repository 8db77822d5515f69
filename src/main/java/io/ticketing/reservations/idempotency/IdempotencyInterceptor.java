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

import com.fasterxml.jackson.databind.ObjectMapper;

import io.ticketing.reservations.auth.Sha256;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.ProblemMapper;
import io.ticketing.reservations.problem.ValidationException;

/**
 * {@code Idempotency-Key}, per bearer token: the first request with a key runs and its response is kept for
 * 24 hours; the same key with the same request replays it, with another request gets 422, and while the first
 * still runs, 409 with {@code Retry-After}. Responses 409, 429 and 5xx are not kept, so a retry after a
 * {@code lock_timeout} or a sold-out answer runs again. "The same request" is the same endpoint with the same
 * path and the same body once parsed, so key order and white space do not matter.
 */
@Idempotent
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
class IdempotencyInterceptor {

    static final String HEADER = "Idempotency-Key";

    @Inject
    HttpHeaders headers;

    @Inject
    IdempotencyKeys keys;

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
        IdempotencyKeys.Claim claim = keys.claim(caller, key, request);
        if (claim instanceof IdempotencyKeys.Replay replay) {
            return replay(replay);
        }
        if (claim instanceof IdempotencyKeys.Mismatch) {
            throw new ApiException(422, "idempotency_key_reused", "Unprocessable Content",
                    "This Idempotency-Key was used for a different request.");
        }
        if (claim instanceof IdempotencyKeys.InFlight) {
            throw new ApiException(409, "idempotency_key_in_use", "Conflict",
                    "A request with this Idempotency-Key is still running; retry shortly.")
                    .retryAfter(Duration.ofSeconds(1));
        }
        return runOnce(invocation, caller, key);
    }

    private Response runOnce(InvocationContext invocation, String caller, String key) throws Exception {
        Response response;
        try {
            response = (Response) invocation.proceed();
        } catch (ApiException e) {
            response = ProblemMapper.respond(e);
        } catch (Exception | Error e) {
            keys.forget(caller, key);
            throw e;
        }
        int status = response.getStatus();
        if (status == 409 || status == 429 || status >= 500) {
            keys.forget(caller, key);
        } else {
            MediaType type = response.getMediaType();
            keys.complete(caller, key, status, type == null ? null : type.toString(),
                    response.getHeaderString(HttpHeaders.LOCATION), response.getHeaderString(HttpHeaders.ETAG),
                    response.hasEntity() ? json.writeValueAsString(response.getEntity()) : null);
        }
        return response;
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

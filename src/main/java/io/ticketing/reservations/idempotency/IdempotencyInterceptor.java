package io.ticketing.reservations.idempotency;

import java.util.HexFormat;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.security.identity.SecurityIdentity;
import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.auth.Sha256;
import io.ticketing.reservations.http.ClientAddress;
import io.ticketing.reservations.locking.DurableTransactions;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.ProblemMapper;
import io.ticketing.reservations.problem.ValidationException;

/**
 * {@code Idempotency-Key}, per bearer token (and for a storefront's, per client: see {@link #caller}): the first request with a key runs and its response is kept for
 * 24 hours; the same key with the same request replays it, with another request gets 422, and while the first
 * still runs, 409 with {@code Retry-After}. Responses 409, 429 and 5xx are not kept, so a retry after a
 * {@code lock_timeout} or a sold-out answer runs again. "The same request" is the same endpoint with the same
 * path and the same body once parsed, so key order and white space do not matter.
 *
 * <p>Exactly once, whatever fails: the key is claimed, the request runs and its answer is recorded in one
 * transaction (the durable method the request calls joins it), so the change and the record of it commit
 * together. A request cut off before its commit leaves nothing, and its retry runs; one whose commit succeeded
 * is replayed, even if its answer never reached the client. An operation {@link DecidedInBatches} leaves its key to
 * the batch its request joins, whose one transaction claims and records every key of the batch
 * ({@link KeysInBatches}); a request that joins none runs here as any other.
 */
@Idempotent
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
class IdempotencyInterceptor {

    static final String HEADER = "Idempotency-Key";
    /** The waiting room's header (contract section 8): a buyer's admission. */
    private static final String ADMISSION = "Admission-Token";

    /** What the request's transaction produced: how the key was found, and the answer if the request ran. */
    private record Ran(IdempotencyKeys.Claim claim, Response response) {
    }

    @Inject
    HttpHeaders headers;

    @Inject
    IdempotencyKeys keys;

    @Inject
    DeferredKey deferred;

    @Inject
    DurableTransactions transactions;

    @Inject
    ObjectMapper json;

    @Inject
    SecurityIdentity identity;

    @Inject
    ClientAddress client;

    @AroundInvoke
    Object once(InvocationContext invocation) throws Exception {
        String key = invocation.getMethod().isAnnotationPresent(POST.class) ? headers.getHeaderString(HEADER) : null;
        if (key == null) {
            return invocation.proceed();
        }
        if (key.isBlank() || key.length() > 255) {
            throw new ValidationException(HEADER, "must be 1 to 255 characters");
        }
        KeyedRequest request = new KeyedRequest(caller(), key,
                sha256(invocation.getMethod().toGenericString() + json.writeValueAsString(invocation.getParameters())));
        if (invocation.getMethod().isAnnotationPresent(DecidedInBatches.class)) {
            deferred.set(request);
            try {
                return invocation.proceed();
            } catch (KeyedRequest.RunAlone alone) {
                // in no batch: below, as any keyed request
            } catch (ApiException refusal) {
                return refused(request, refusal);
            } finally {
                deferred.set(null);
            }
        }
        Ran ran;
        try {
            ran = transactions.forRequest(() -> runOnce(invocation, request));
        } catch (ApiException refusal) {
            return refused(request, refusal);
        }
        return ran.claim() instanceof IdempotencyKeys.Started
                ? ran.response()
                : IdempotencyKeys.answerInstead(ran.claim());
    }

    /** In the request's transaction: a refusal thrown from here rolls the claim back with everything else. */
    private Ran runOnce(InvocationContext invocation, KeyedRequest request) throws Exception {
        IdempotencyKeys.Claim claim = keys.claim(request);
        if (!(claim instanceof IdempotencyKeys.Started)) {
            return new Ran(claim, null);
        }
        Response response = (Response) invocation.proceed();
        if (kept(response.getStatus())) {
            keys.record(request, response);
        } else {
            transactions.rollBack();
        }
        return new Ran(claim, response);
    }

    /** A refusal changed nothing; one that is kept is recorded on its own, so that its retry replays it. */
    private Response refused(KeyedRequest request, ApiException refusal) {
        Response response = ProblemMapper.respond(refusal);
        if (kept(response.getStatus())) {
            keys.recordRefusal(request, response);
        }
        return response;
    }

    /**
     * Whose keys these are: the token's. A storefront token sits in every buyer's browser, so its records are kept
     * per client address and admission as well: a key another buyer guessed or reused never replays this one's
     * answer (a new cart's id, a queue ticket: their credentials). Named by digest: no record holds a token.
     */
    private String caller() {
        String token = String.valueOf(headers.getHeaderString(HttpHeaders.AUTHORIZATION));
        if (identity.hasRole(Roles.ADMIN)) {
            return sha256(token);
        }
        return sha256(token + "\n" + client.current() + "\n" + headers.getHeaderString(ADMISSION));
    }

    static boolean kept(int status) {
        return status != 409 && status != 429 && status < 500;
    }

    private static String sha256(String text) {
        return HexFormat.of().formatHex(Sha256.of(String.valueOf(text)));
    }
}

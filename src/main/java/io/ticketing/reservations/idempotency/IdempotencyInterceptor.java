package io.ticketing.reservations.idempotency;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

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
import io.ticketing.reservations.http.PathParams;
import io.ticketing.reservations.locking.DurableTransactions;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.ProblemMapper;
import io.ticketing.reservations.problem.ValidationException;

/**
 * {@code Idempotency-Key}, per bearer token (and for a storefront's, per cart or admission: see {@link #caller}):
 * the first request with a key runs and its response is kept for 24 hours; the same key with the same request
 * replays it, with another request gets 422, and while the first still runs, 409 with {@code Retry-After}.
 * Responses 409, 429 and 5xx are not kept, so a retry after a {@code lock_timeout} or a sold-out answer runs again.
 * "The same request" is the same endpoint with the same path and the same body once parsed, so key order and white
 * space do not matter.
 *
 * <p>Exactly once, whatever fails: the key is claimed, the request runs and its answer is recorded in one
 * transaction (the durable method the request calls joins it), so the change and the record of it commit
 * together. A request cut off before its commit leaves nothing, and its retry runs; one whose commit succeeded
 * is replayed, even if its answer never reached the client. An operation {@link DecidedInBatches} leaves its key to
 * the batch its request joins, whose one transaction claims and records every key of the batch
 * ({@link KeysInBatches}); a request that joins none runs here as any other. Such a request is checked before it
 * joins a batch (its admission, say), with its key not yet claimed: a refusal there stands only if its key recorded
 * nothing, so that a retry replays its first answer even once a check would refuse it.
 */
@Idempotent
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
class IdempotencyInterceptor {

    static final String HEADER = "Idempotency-Key";
    /** The waiting room's header (contract section 8): a buyer's admission. */
    private static final String ADMISSION = "Admission-Token";
    /** The path parameter of the cart endpoints that names their cart. */
    private static final String CART = "cart";

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

    @AroundInvoke
    Object once(InvocationContext invocation) throws Exception {
        String key = invocation.getMethod().isAnnotationPresent(POST.class) ? headers.getHeaderString(HEADER) : null;
        if (key == null) {
            return invocation.proceed();
        }
        if (key.isBlank() || key.length() > 255) {
            throw new ValidationException(HEADER, "must be 1 to 255 characters");
        }
        KeyedRequest request = new KeyedRequest(caller(invocation), key,
                sha256(invocation.getMethod().toGenericString() + json.writeValueAsString(invocation.getParameters())));
        if (invocation.getMethod().isAnnotationPresent(DecidedInBatches.class)) {
            deferred.set(request);
            try {
                return invocation.proceed();
            } catch (KeyedRequest.RunAlone alone) {
                // in no batch: below, as any keyed request
            } catch (ApiException refusal) {
                return deferred.taken() ? refused(request, refusal) : refusedUnclaimed(request, refusal);
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
     * Refused by a check before a batch claimed its key (contract section 4: a retry replays its first answer,
     * whatever a check would now say): what the key recorded stands instead, else the refusal, recorded if kept.
     * Claiming every key before those checks would cost every add and checkout a round trip; this costs a refusal
     * one, which also records it. A 5xx is no answer (retry later) and, under load, looks nothing up.
     */
    private Response refusedUnclaimed(KeyedRequest request, ApiException refusal) {
        Response response = ProblemMapper.respond(refusal);
        if (response.getStatus() >= 500) {
            return response;
        }
        return keys.recordedInstead(request, response, kept(response.getStatus()))
                .map(IdempotencyKeys::answerInstead).orElse(response);
    }

    /**
     * Whose keys these are: the token's. A storefront token sits in every buyer's browser, so its keys are kept per
     * what the request names that only its buyer holds (contract section 8): the cart it acts on (in its path, or
     * its body's {@link NamesACart}), else the admission it opens a cart with. Another buyer's key, reused or
     * guessed, never replays this one's answer, and a retry replays it from whatever address it comes, a phone's
     * changed network included. A request naming neither (a cart opened while no room is on, a queue ticket) is the
     * token's alone: its key must be unique to it. Named by digest: no record holds a token.
     */
    private String caller(InvocationContext invocation) {
        String token = String.valueOf(headers.getHeaderString(HttpHeaders.AUTHORIZATION));
        if (identity.hasRole(Roles.ADMIN) || identity.hasRole(Roles.CHECKIN)) {
            return sha256(token);
        }
        String cart = Optional.ofNullable(PathParams.of(CART))
                .or(() -> Arrays.stream(invocation.getParameters()).filter(NamesACart.class::isInstance)
                        .map(body -> ((NamesACart) body).cartId()).findFirst())
                .orElse(null);
        String named = cart != null ? "cart " + cart : "admission " + headers.getHeaderString(ADMISSION);
        return sha256(token + "\n" + named);
    }

    static boolean kept(int status) {
        return status != 409 && status != 429 && status < 500;
    }

    private static String sha256(String text) {
        return HexFormat.of().formatHex(Sha256.of(String.valueOf(text)));
    }
}

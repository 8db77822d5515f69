package io.ticketing.reservations.idempotency;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.core.Response;

import io.quarkus.arc.Arc;

/**
 * The {@code Idempotency-Key}s of requests decided together in one durable transaction
 * ({@code reservation/ClaimBatches}): every key is claimed in that transaction before anything is decided, and every
 * answer recorded in it before the commit, so each request's change and the record of it commit together, exactly
 * as for a request alone ({@link IdempotencyInterceptor}).
 */
@ApplicationScoped
public class KeysInBatches {

    private final IdempotencyKeys keys;
    private final DeferredKey deferred;

    KeysInBatches(IdempotencyKeys keys, DeferredKey deferred) {
        this.keys = keys;
        this.deferred = deferred;
    }

    /**
     * The key of the request this thread serves, if its interceptor left it to a batch (else null), which the batch
     * now answers for: its claim comes before anything the batch decides.
     */
    public KeyedRequest take() {
        return Arc.container().requestContext().isActive() ? deferred.take() : null;
    }

    /** What a request is answered while another with its key runs: 409, retry shortly. */
    public Response inUse() {
        return IdempotencyKeys.answerInstead(new IdempotencyKeys.InFlight());
    }

    /**
     * Claims the keys of a batch's requests (null for a request without one; no key twice) and returns, for each
     * request, what it is answered instead of running, or null when it runs: the answer recorded for its key, 422
     * for a key used for another request, 409 for one still running elsewhere, as for a request alone.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<Response> claim(List<KeyedRequest> requests) {
        List<KeyedRequest> keyed = requests.stream().filter(Objects::nonNull).toList();
        Iterator<IdempotencyKeys.Claim> claims = keyed.isEmpty()
                ? Collections.emptyIterator()
                : keys.claimEach(keyed).iterator();
        List<Response> instead = new ArrayList<>();
        for (KeyedRequest request : requests) {
            IdempotencyKeys.Claim claim = request == null ? null : claims.next();
            instead.add(claim == null || claim instanceof IdempotencyKeys.Started
                    ? null
                    : IdempotencyKeys.answerInstead(claim));
        }
        return instead;
    }

    /**
     * Before the batch commits, in one round trip: records the answers of the keyed requests that ran ({@code answered},
     * those whose status is kept: a 2xx or 4xx but 409 and 429), and forgets the keys of the others (refused, or sent
     * to run alone), whose refusals their interceptors record as for a request alone.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void settle(Map<KeyedRequest, Response> answered, List<KeyedRequest> unanswered) {
        Map<KeyedRequest, Response> kept = new LinkedHashMap<>();
        List<KeyedRequest> forgotten = new ArrayList<>(unanswered);
        answered.forEach((request, answer) -> {
            if (IdempotencyInterceptor.kept(answer.getStatus())) {
                kept.put(request, answer);
            } else {
                forgotten.add(request);
            }
        });
        if (!kept.isEmpty() || !forgotten.isEmpty()) {
            keys.settleEach(kept, forgotten);
        }
    }
}

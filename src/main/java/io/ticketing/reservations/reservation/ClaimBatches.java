package io.ticketing.reservations.reservation;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.ticketing.reservations.idempotency.KeyedRequest;
import io.ticketing.reservations.idempotency.KeysInBatches;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.locking.DurableTransactions;
import io.ticketing.reservations.locking.LockTimeoutException;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.InventoryChanged;

/**
 * Requests of one flow (add to cart, checkout) of one event that wait for its locks are decided together (contract
 * section 2, "combined claims"): one durable transaction, one lock call on the union of their objects, one count,
 * one insert, one commit. A hot quota then sells a batch per lock hold instead of one sale.
 *
 * <p>No timer: the first request of an idle event runs at once, alone. Those that arrive while a batch runs wait
 * here; when it ends, the longest waiting of them takes every request then waiting, its own included, as the next
 * batch and runs it on its own thread. Each request gets its own outcome: its result, or its own refusal. A failure
 * of the batch as a whole is nobody's refusal: before the commit (a constraint, a lost connection) it wrote nothing,
 * and each request runs again alone, as it would have without combining; at the commit it is each request's 503, as
 * it would have been alone. Each request keeps its own lock bound: the batch waits for the locks as long as its
 * leader may, and when that runs out, a request whose own bound has not runs again alone for the rest of it. A
 * request whose cart another transaction holds leaves the batch and waits for it alone, so that one cart never
 * stalls a batch.
 *
 * <p>A request with an {@code Idempotency-Key} joins a batch too: the batch's transaction claims its key before
 * anything is decided and records its answer before the commit ({@link KeysInBatches}), so each request's change and
 * the record of it commit together. Each request therefore brings the answer it is to be recorded with. A second
 * request with a key that waits or runs in the queue already is answered at once that it is in use, as a second
 * request with the key of a running one always is.
 *
 * <p>Per replica: requests on other replicas queue at the advisory locks as before.
 */
@ApplicationScoped
public class ClaimBatches {

    private static final Logger LOG = Logger.getLogger(ClaimBatches.class);

    /** What a batch decided for one request: its result, or the refusal to throw in its thread. */
    public record Outcome<R>(R result, ApiException refusal) {

        public static <R> Outcome<R> of(R result) {
            return new Outcome<>(result, null);
        }

        public static <R> Outcome<R> refused(ApiException refusal) {
            return new Outcome<>(null, refusal);
        }
    }

    /**
     * What one request is told: its result, its answer (recorded for its key), its refusal or the batch's failure to
     * throw in its thread, or to run alone.
     */
    record Decided<R>(R result, Response answer, RuntimeException failure, boolean runsAlone) {

        static <R> Decided<R> of(R result) {
            return new Decided<>(result, null, null, false);
        }

        static <R> Decided<R> answered(Response answer) {
            return new Decided<>(null, answer, null, false);
        }

        static <R> Decided<R> failed(RuntimeException failure) {
            return new Decided<>(null, null, failure, false);
        }

        static <R> Decided<R> alone() {
            return new Decided<>(null, null, null, true);
        }
    }

    /** A batch's transaction failed before its commit, so it wrote nothing: each request may run again alone. */
    private static final class FailedBeforeCommit extends RuntimeException {

        FailedBeforeCommit(RuntimeException cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    /** One queue of requests of one flow of one event: only requests of one flow can be decided together. */
    private record Key(long eventId, String flow, int queue) {
    }

    private final Map<Key, BatchQueue> queues = new ConcurrentHashMap<>();
    private final AdvisoryLocks locks;
    private final DurableTransactions transactions;
    private final KeysInBatches keys;
    private final ReservationConfig config;
    private final ReservationCheckpoints checkpoints;
    private final DistributionSummary sizes;
    private final Counter rerunAlone;

    ClaimBatches(AdvisoryLocks locks, DurableTransactions transactions, KeysInBatches keys, ReservationConfig config,
            ReservationCheckpoints checkpoints, MeterRegistry meters) {
        this.locks = locks;
        this.transactions = transactions;
        this.keys = keys;
        this.config = config;
        this.checkpoints = checkpoints;
        this.sizes = DistributionSummary.builder("inventory.claims.batch.size")
                .description("Requests decided together in one durable transaction").register(meters);
        this.rerunAlone = Counter.builder("inventory.claims.batch.rerun")
                .description("Batches that failed as a whole before their commit, each request run again alone: a"
                        + " batch that always fails sells as slowly as no batching, and answers all the same")
                .register(meters);
    }

    /**
     * Runs {@code request}, which changes cart {@code cartId}, in the next batch of {@code flow} in the event and
     * returns its answer. {@code together} decides a batch's requests inside its durable transaction and returns one
     * outcome per request, in order (null: this one runs alone after the batch); {@code alone} runs this request by
     * itself, in a durable transaction of its own, when combining is off or the request has a transaction already,
     * and also if its batch failed before its commit; {@code answer} turns its result into its answer. A request
     * whose key was left to a batch ({@link KeysInBatches#take}) that cannot be decided in one throws
     * {@link KeyedRequest.RunAlone} instead of running alone, so that its transaction claims its key.
     */
    public <C, R> Response submit(long eventId, String flow, String cartId, C request, Function<R, Response> answer,
            Function<List<C>, List<Outcome<R>>> together, Supplier<R> alone) {
        KeyedRequest key = keys.take();
        if (!config.combine() || transactions.inTransaction()) {
            return runAlone(key, answer, alone);
        }
        BatchQueue queue = queues.computeIfAbsent(new Key(eventId, flow, checkpoints.batchQueue(eventId, cartId)),
                k -> new BatchQueue());
        BatchMember<C, R> mine = new BatchMember<>(request, key, answer, together, alone,
                System.nanoTime() + locks.remainingBudget().toNanos());
        BatchQueue.Entered entered = queue.enter(mine);
        if (entered == BatchQueue.Entered.KEY_IN_USE) {
            return keys.inUse();
        }
        if (entered == BatchQueue.Entered.WAITS && !mine.awaitTurn(locks.remainingBudget())) {
            if (queue.withdraw(mine)) {
                throw locks.timedOut();
            }
            mine.awaitTurn(null); // taken into a batch, or told to lead one, just as its time ran out
        }
        if (mine.leads()) {
            lead(eventId, queue);
        }
        Decided<R> decided = mine.decided();
        if (decided.runsAlone()) {
            return runAlone(key, answer, alone);
        }
        if (decided.failure() != null) {
            throw decided.failure();
        }
        return decided.answer() != null ? decided.answer() : answer.apply(decided.result());
    }

    private static <R> Response runAlone(KeyedRequest key, Function<R, Response> answer, Supplier<R> alone) {
        if (key != null) {
            throw new KeyedRequest.RunAlone();
        }
        return answer.apply(alone.get());
    }

    /** Requests of the event waiting for a batch now: in a race, they wait as they would for a lock. */
    public int waiting(long eventId) {
        return queues.entrySet().stream().filter(queue -> queue.getKey().eventId() == eventId)
                .mapToInt(queue -> queue.getValue().size()).sum();
    }

    /**
     * Runs every request waiting now as one batch, then hands the queue to the next waiting request, if any. A lock
     * timeout is the leader's, and every request's whose bound ran out with it; the others run again alone, each for
     * the rest of its own bound (nothing is refused for another request's clock). A failure before the commit wrote
     * nothing, so each request runs again alone, as it would have without combining; a failure of the commit itself
     * may have written everything or nothing, so each request hears of it, as a request alone would (503
     * {@code database_unavailable}: retry with the same {@code Idempotency-Key}).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void lead(long eventId, BatchQueue queue) {
        checkpoints.beforeBatch(eventId);
        List<BatchMember> batch = queue.takeAll();
        sizes.record(batch.size());
        if (batch.size() == 1 && batch.get(0).key == null) {
            // Alone, a request sends its write with its locks: one round trip less than a batch, which must decide
            // before it writes. The queue stays taken until it ends, so that the requests arriving meanwhile make
            // the next batch.
            BatchMember only = batch.get(0);
            try {
                only.decided(Decided.of(only.alone.get()));
            } catch (RuntimeException failed) {
                only.decided(Decided.failed(failed));
            } finally {
                queue.passOn(batch);
            }
            return;
        }
        try {
            List<Decided> decided = (List) decide((List) batch);
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).decided(decided.get(i));
            }
        } catch (LockTimeoutException timedOut) {
            // The batch waited on its leader's clock; a request with time left waits on, alone, for the rest of its own.
            long now = System.nanoTime();
            batch.forEach(waiting -> waiting.decided(waiting.deadlineNanos - now <= 0
                    ? Decided.failed(timedOut)
                    : Decided.alone()));
        } catch (FailedBeforeCommit | InventoryChanged failed) {
            LOG.debugf(failed, "a batch of %d claims failed; each runs again alone", batch.size());
            rerunAlone.increment();
            batch.forEach(waiting -> waiting.decided(Decided.alone()));
        } catch (RuntimeException failed) {
            // A row the batch refers to went under it, each time it ran (a seat a seating plan dropped): each request,
            // read again alone, is answered as things now are, and no other pays for it.
            rerunAlone.increment();
            batch.forEach(waiting -> waiting.decided(InventoryChanged.isCause(failed)
                    ? Decided.alone()
                    : Decided.failed(failed)));
        } finally {
            queue.passOn(batch);
        }
    }

    /**
     * The batch's one durable transaction: its keys claimed, its requests decided, the answers of its keyed requests
     * recorded. A request answered from its key (a replay, say) is not decided; the others are, in arrival order.
     */
    @DurableTransaction
    <C, R> List<Decided<R>> decide(List<BatchMember<C, R>> batch) {
        try {
            return decideInTransaction(batch);
        } catch (LockTimeoutException | InventoryChanged passedOn) {
            throw passedOn;
        } catch (RuntimeException failed) {
            if (InventoryChanged.isCause(failed)) {
                throw failed; // run again by DurableTransactions
            }
            throw new FailedBeforeCommit(failed);
        }
    }

    private <C, R> List<Decided<R>> decideInTransaction(List<BatchMember<C, R>> batch) {
        List<Response> instead = keys.claim(batch.stream().map(waiting -> waiting.key).toList());
        List<C> running = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            if (instead.get(i) == null) {
                running.add(batch.get(i).request);
            }
        }
        Iterator<Outcome<R>> outcomes = (running.isEmpty()
                ? List.<Outcome<R>>of()
                : batch.get(0).together.apply(running)).iterator();
        Map<KeyedRequest, Response> answered = new LinkedHashMap<>();
        List<KeyedRequest> unanswered = new ArrayList<>();
        List<Decided<R>> decided = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            BatchMember<C, R> waiting = batch.get(i);
            if (instead.get(i) != null) {
                decided.add(Decided.answered(instead.get(i)));
                continue;
            }
            Outcome<R> outcome = outcomes.next();
            if (outcome == null) {
                decided.add(Decided.alone());
            } else if (outcome.refusal() != null) {
                decided.add(Decided.failed(outcome.refusal()));
            } else if (waiting.key == null) {
                decided.add(Decided.of(outcome.result()));
            } else {
                Response answer = waiting.answer.apply(outcome.result());
                answered.put(waiting.key, answer);
                decided.add(Decided.answered(answer));
            }
            if (waiting.key != null && decided.get(i).answer() == null) {
                unanswered.add(waiting.key);
            }
        }
        keys.settle(answered, unanswered);
        return decided;
    }
}

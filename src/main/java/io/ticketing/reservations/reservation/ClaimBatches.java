package io.ticketing.reservations.reservation;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.LockTimeoutException;
import io.ticketing.reservations.problem.ApiException;

/**
 * Requests of one flow (add to cart, checkout) of one event that wait for its locks are decided together (contract
 * section 2, "combined claims"): one durable transaction, one lock call on the union of their objects, one count,
 * one insert, one commit. A hot quota then sells a batch per lock hold instead of one sale.
 *
 * <p>No timer: the first request of an idle event runs at once, alone. Those that arrive while a batch runs wait
 * here; when it ends, the longest waiting of them takes every request then waiting, its own included, as the next
 * batch and runs it on its own thread. Each request gets its own outcome: its result, or its own refusal. A failure
 * of the batch as a whole (a constraint, a lost connection) is nobody's refusal: each request then runs again
 * alone, as it would have without combining; a lock timeout is every request's, as it would have been.
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

    /** Requests of one flow of one event: only requests of one flow can be decided together. */
    private record Key(long eventId, String flow) {
    }

    private final Map<Key, Queue> queues = new ConcurrentHashMap<>();
    private final AdvisoryLocks locks;
    private final DistributionSummary sizes;

    ClaimBatches(AdvisoryLocks locks, MeterRegistry meters) {
        this.locks = locks;
        this.sizes = DistributionSummary.builder("inventory.claims.batch.size")
                .description("Requests decided together in one durable transaction").register(meters);
    }

    /**
     * Runs {@code request} in the next batch of {@code flow} in the event and returns its outcome. {@code together}
     * runs a batch in one durable transaction and returns one outcome per request, in order (null: this one runs
     * alone after the batch); {@code alone} runs this request by itself, also if its batch failed as a whole.
     */
    public <C, R> R submit(long eventId, String flow, C request, Function<List<C>, List<Outcome<R>>> together,
            Supplier<R> alone) {
        Queue queue = queues.computeIfAbsent(new Key(eventId, flow), k -> new Queue());
        Waiting<C, R> mine = new Waiting<>(request, together);
        if (!queue.enter(mine) && !mine.awaitTurn(locks.remainingBudget())) {
            if (queue.withdraw(mine)) {
                throw locks.timedOut();
            }
            mine.awaitTurn(null); // taken into a batch, or told to lead one, just as its time ran out
        }
        if (mine.leads()) {
            lead(queue);
        }
        Outcome<R> outcome = mine.outcome();
        if (outcome == null) {
            return alone.get();
        }
        if (outcome.refusal() != null) {
            throw outcome.refusal();
        }
        return outcome.result();
    }

    /** Requests of the event waiting for a batch now: in a race, they wait as they would for a lock. */
    public int waiting(long eventId) {
        return queues.entrySet().stream().filter(queue -> queue.getKey().eventId() == eventId)
                .mapToInt(queue -> queue.getValue().size()).sum();
    }

    /** Runs every request waiting now as one batch, then hands the queue to the next waiting request, if any. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void lead(Queue queue) {
        List<Waiting> batch = queue.takeAll();
        sizes.record(batch.size());
        try {
            List requests = batch.stream().map(waiting -> waiting.request).toList();
            List<Outcome> outcomes = (List<Outcome>) batch.get(0).together.apply(requests);
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).decided(outcomes.get(i));
            }
        } catch (LockTimeoutException timedOut) {
            batch.forEach(waiting -> waiting.decided(Outcome.refused(timedOut)));
        } catch (RuntimeException failed) {
            LOG.debugf(failed, "a batch of %d claims failed; each runs again alone", batch.size());
            batch.forEach(waiting -> waiting.decided(null));
        } finally {
            queue.passOn();
        }
    }

    /** One event's waiting requests, and whether a batch of them is running. */
    private static final class Queue {

        @SuppressWarnings("rawtypes")
        private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
        private boolean running;

        /** Queues {@code request}; true if nothing runs, and it leads the next batch at once. */
        synchronized boolean enter(Waiting<?, ?> request) {
            waiting.add(request);
            if (running) {
                return false;
            }
            running = true;
            request.lead();
            return true;
        }

        synchronized int size() {
            return waiting.size();
        }

        /** Leaves the queue, unless the request was told to lead the next batch, or is in one. */
        synchronized boolean withdraw(Waiting<?, ?> request) {
            return !request.leads() && waiting.remove(request);
        }

        @SuppressWarnings("rawtypes")
        synchronized List<Waiting> takeAll() {
            List<Waiting> batch = new ArrayList<>(waiting);
            waiting.clear();
            return batch;
        }

        /** The batch has ended: the longest waiting request leads the next one, or the queue is idle. */
        synchronized void passOn() {
            Waiting<?, ?> next = waiting.peek();
            if (next == null) {
                running = false;
            } else {
                next.lead();
            }
        }
    }

    /** A request in a queue: told either to lead a batch or its outcome. */
    private static final class Waiting<C, R> {

        final C request;
        final Function<List<C>, List<Outcome<R>>> together;
        private boolean leads;
        private boolean decided;
        private Outcome<R> outcome;

        Waiting(C request, Function<List<C>, List<Outcome<R>>> together) {
            this.request = request;
            this.together = together;
        }

        synchronized void lead() {
            leads = true;
            notifyAll();
        }

        synchronized void decided(Outcome<R> outcome) {
            this.outcome = outcome;
            this.decided = true;
            notifyAll();
        }

        synchronized boolean leads() {
            return leads && !decided;
        }

        synchronized Outcome<R> outcome() {
            return outcome;
        }

        /**
         * Waits until told to lead or decided, at most {@code left} (null: however long); false if that ran out
         * first. Once in a batch a request waits for it whatever its own time: the batch's lock wait is bounded.
         */
        synchronized boolean awaitTurn(Duration left) {
            long deadline = left == null ? Long.MAX_VALUE : System.nanoTime() + left.toNanos();
            try {
                while (!leads && !decided) {
                    long nanos = deadline - System.nanoTime();
                    if (nanos <= 0) {
                        return false;
                    }
                    if (left == null) {
                        wait();
                    } else {
                        TimeUnit.NANOSECONDS.timedWait(this, nanos);
                    }
                }
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}

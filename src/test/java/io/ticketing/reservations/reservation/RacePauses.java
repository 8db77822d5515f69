package io.ticketing.reservations.reservation;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * Holds flows at the {@link ReservationCheckpoints} so that a race is decided the same way on every run.
 *
 * <p>A {@link Race} holds every flow of one event after its availability check until each of the racers has
 * either checked too or is blocked: waiting for a lock in PostgreSQL (a racer blocked there has read what it
 * counts: the counts go before the writes in its round trip), or for the next batch of its event
 * ({@link ClaimBatches}). With the locks, the first holds them while the others wait for them, so the race goes on as
 * it would; without them, every racer has checked before any commits, so the oversell the locks prevent is certain.
 *
 * <p>Each racer of a {@link #race} joins a batch queue of its own, as if every racer had come to another replica:
 * each is decided alone, and they meet only at the locks. The racers of a {@link #raceInBatches} are dealt out to a
 * few queues by their carts, as to a few replicas, and no batch is taken before every racer waits in one, so that
 * each queue's batch holds all of its racers: the locks must then keep the batches of different queues apart.
 */
@Alternative
@Priority(1)
@Singleton
public class RacePauses implements ReservationCheckpoints {

    private static final String WAITING_FOR_A_LOCK = "SELECT count(*) FROM pg_stat_activity"
            + " WHERE datname = current_database() AND wait_event_type = 'Lock'";

    @Inject
    DataSource dataSource;

    @Inject
    ClaimBatches batches;

    private volatile Race race;
    private volatile Hold hold;
    /** The event a probe on this thread decides for, whose write must not commit ({@link #probing}). */
    private final ThreadLocal<Long> probe = new ThreadLocal<>();

    /** Thrown where a probed flow found its claims fit: its transaction rolls back, having left nothing. */
    public static final class ProbeFits extends RuntimeException {

        ProbeFits() {
            super("the probe fits", null, false, false);
        }
    }

    @Override
    public void beforeLocks(long eventId, int requests) {
        Race armed = race;
        if (armed != null && armed.eventId == eventId) {
            armed.reached(requests);
        }
        Hold held = hold;
        if (held != null && held.eventId == eventId) {
            hold = null;
            held.reached.countDown();
            await(held.release, "the test to release the flow held before its locks");
        }
    }

    @Override
    public void afterChecks(long eventId, int requests) {
        Race armed = race;
        if (armed != null && armed.eventId == eventId) {
            armed.checked(requests);
            await(armed.released, "the other racers");
        }
    }

    @Override
    public void fits(long eventId) {
        Long probed = probe.get();
        if (probed != null && probed == eventId) {
            throw new ProbeFits();
        }
    }

    /**
     * Runs {@code flow} (a request alone, on this thread) as a probe of {@code eventId}: where its claims fit, it
     * throws {@link ProbeFits} instead of committing them.
     */
    public void probing(long eventId, Runnable flow) {
        probe.set(eventId);
        try {
            flow.run();
        } finally {
            probe.remove();
        }
    }

    @Override
    public void beforeBatch(long eventId) {
        Race armed = race;
        if (armed != null && armed.eventId == eventId) {
            await(armed.allQueued, "every racer to wait for a batch");
        }
    }

    @Override
    public int batchQueue(long eventId, String cartId) {
        Race armed = race;
        if (armed == null || armed.eventId != eventId) {
            return 0;
        }
        return armed.queueOfCart == null ? armed.dealt.getAndIncrement() : armed.queueOfCart.getOrDefault(cartId, 0);
    }

    /** Holds the next flow of {@code eventId} before it locks, until {@link Hold#close}. */
    public Hold holdBeforeLocks(long eventId) {
        Hold armed = new Hold(eventId);
        hold = armed;
        return armed;
    }

    /**
     * Runs {@code flow} (a request) on a thread of its own, holds it before its locks while {@code meanwhile} runs,
     * then lets it go on, and answers what it answered.
     */
    public <T> T heldBeforeLocksWhile(long eventId, Callable<T> flow, Runnable meanwhile) throws Exception {
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Hold held = holdBeforeLocks(eventId)) {
            Future<T> answer = thread.submit(flow);
            held.awaitReached();
            meanwhile.run();
            held.close();
            return answer.get(30, TimeUnit.SECONDS);
        } finally {
            thread.shutdownNow();
        }
    }

    /** {@code racers} flows of {@code eventId}, each as if on a replica of its own, held as the class comment says. */
    public Race race(long eventId, int racers) {
        return arm(new Race(eventId, racers, null));
    }

    /** {@code racers} adds or checkouts of {@code eventId} in batches, each in the queue {@code queueOfCart} gives its cart. */
    public Race raceInBatches(long eventId, Map<String, Integer> queueOfCart, int racers) {
        return arm(new Race(eventId, racers, queueOfCart));
    }

    private Race arm(Race armed) {
        race = armed;
        armed.watcher = CompletableFuture.runAsync(armed::watch);
        return armed;
    }

    private static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("waited 20 s for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public final class Hold implements AutoCloseable {

        private final long eventId;
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        private Hold(long eventId) {
            this.eventId = eventId;
        }

        /** Returns once the flow is held. */
        public void awaitReached() {
            await(reached, "a flow to reach its locks");
        }

        @Override
        public void close() {
            hold = null;
            release.countDown();
        }
    }

    public final class Race implements AutoCloseable {

        private final long eventId;
        private final int racers;
        private final Map<String, Integer> queueOfCart;
        private final AtomicInteger dealt = new AtomicInteger();
        /** Requests and flows (a flow is one request, or one batch) that reached their locks, and that checked. */
        private final AtomicInteger reachedRequests = new AtomicInteger();
        private final AtomicInteger reachedFlows = new AtomicInteger();
        private final AtomicInteger checkedRequests = new AtomicInteger();
        private final AtomicInteger checkedFlows = new AtomicInteger();
        private final CountDownLatch allQueued;
        private final CountDownLatch firstChecked = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private final CountDownLatch closed = new CountDownLatch(1);
        private CompletableFuture<Void> watcher;

        private Race(long eventId, int racers, Map<String, Integer> queueOfCart) {
            this.eventId = eventId;
            this.racers = racers;
            this.queueOfCart = queueOfCart;
            this.allQueued = new CountDownLatch(queueOfCart == null ? 0 : 1);
        }

        private void reached(int requests) {
            reachedRequests.addAndGet(requests);
            reachedFlows.incrementAndGet();
        }

        private void checked(int requests) {
            checkedRequests.addAndGet(requests);
            checkedFlows.incrementAndGet();
            firstChecked.countDown();
        }

        /** Returns once a racer has checked and is held. */
        public void awaitFirstChecked() {
            await(firstChecked, "a racer to check");
        }

        /**
         * On its own connection, outside any flow's transaction: each query sees the backends as they are now. A flow
         * waiting for a lock is one backend, whatever the number of its requests: when every flow that reached its
         * locks and has not checked is waiting for one, all their requests are blocked; otherwise each waiting backend
         * is counted as one request.
         */
        private void watch() {
            try (Connection connection = dataSource.getConnection(); Statement query = connection.createStatement()) {
                while (released.getCount() > 0 && closed.getCount() > 0) {
                    try (ResultSet waiting = query.executeQuery(WAITING_FOR_A_LOCK)) {
                        waiting.next();
                        long lockWaiters = waiting.getLong(1);
                        int queued = batches.waiting(eventId);
                        if (queued >= racers) {
                            allQueued.countDown();
                        }
                        int checked = checkedRequests.get();
                        int pendingFlows = reachedFlows.get() - checkedFlows.get();
                        long blocked = Math.max(lockWaiters, pendingFlows > 0 && lockWaiters >= pendingFlows
                                ? reachedRequests.get() - checked
                                : 0);
                        if (checked > 0 && checked + blocked + queued >= racers) {
                            released.countDown();
                        }
                    }
                    closed.await(2, TimeUnit.MILLISECONDS);
                }
            } catch (SQLException | InterruptedException e) {
                throw new IllegalStateException("could not watch the race", e);
            }
        }

        /** Ends the race; fails if the racers were let go by the timeout rather than by the race itself. */
        @Override
        public void close() throws Exception {
            race = null;
            boolean decided = released.getCount() == 0;
            closed.countDown();
            released.countDown();
            allQueued.countDown();
            watcher.get(10, TimeUnit.SECONDS);
            if (!decided) {
                throw new AssertionError("the race was never decided: " + checkedRequests.get() + " of " + racers
                        + " racers checked, the others were not waiting for a lock");
            }
        }
    }
}

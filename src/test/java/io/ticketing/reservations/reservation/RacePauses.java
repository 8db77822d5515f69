package io.ticketing.reservations.reservation;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
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
 * either checked too or is waiting for a lock in PostgreSQL (a racer blocked there has read what it counts: the
 * counts go before the writes in its round trip) or for the next batch of its event ({@link ClaimBatches}). With the locks, the first racer holds them while the others
 * wait for them, so the race goes on as it would; without them, every racer has checked before any commits, so
 * the oversell the locks prevent is certain.
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

    @Override
    public void beforeLocks(long eventId) {
        Hold armed = hold;
        if (armed != null && armed.eventId == eventId) {
            hold = null;
            armed.reached.countDown();
            await(armed.release, "the test to release the flow held before its locks");
        }
    }

    @Override
    public void afterChecks(long eventId, int requests) {
        Race armed = race;
        if (armed != null && armed.eventId == eventId) {
            armed.checked.addAndGet(requests);
            armed.firstChecked.countDown();
            await(armed.released, "the other racers");
        }
    }

    /** Holds the next flow of {@code eventId} before it locks, until {@link Hold#close}. */
    public Hold holdBeforeLocks(long eventId) {
        Hold armed = new Hold(eventId);
        hold = armed;
        return armed;
    }

    /** Holds {@code racers} flows of {@code eventId} after their checks, as the class comment says. */
    public Race race(long eventId, int racers) {
        Race armed = new Race(eventId, racers);
        race = armed;
        armed.watcher = CompletableFuture.runAsync(armed::releaseWhenAllHaveChecked);
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
        private final AtomicInteger checked = new AtomicInteger();
        private final CountDownLatch firstChecked = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private final CountDownLatch closed = new CountDownLatch(1);
        private CompletableFuture<Void> watcher;

        private Race(long eventId, int racers) {
            this.eventId = eventId;
            this.racers = racers;
        }

        /** Returns once a racer has checked and is held. */
        public void awaitFirstChecked() {
            await(firstChecked, "a racer to check");
        }

        /** On its own connection, outside any flow's transaction: each query sees the backends as they are now. */
        private void releaseWhenAllHaveChecked() {
            try (Connection connection = dataSource.getConnection(); Statement query = connection.createStatement()) {
                while (released.getCount() > 0 && closed.getCount() > 0) {
                    try (ResultSet waiting = query.executeQuery(WAITING_FOR_A_LOCK)) {
                        waiting.next();
                        if (checked.get() > 0
                                && checked.get() + waiting.getLong(1) + batches.waiting(eventId) >= racers) {
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
            watcher.get(10, TimeUnit.SECONDS);
            if (!decided) {
                throw new AssertionError("the race was never decided: " + checked.get() + " of " + racers
                        + " racers checked, the others were not waiting for a lock");
            }
        }
    }
}

package io.ticketing.reservations.locking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** The lock engine against a real PostgreSQL, with real concurrent transactions. */
@QuarkusTest
class AdvisoryLocksTest {

    @Inject
    LockProbe probe;

    @Inject
    DataSource dataSource;

    @Inject
    LockConfig config;

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void transactionsLockingOverlappingSetsInDifferentOrdersNeverDeadlock() throws Exception {
        long event = newEventId();
        List<LockTarget> objects = quotas(1, 8);
        int workers = 12;
        int rounds = 15;
        CyclicBarrier together = new CyclicBarrier(workers);
        List<Future<?>> results = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            results.add(threads.submit(() -> {
                for (int round = 0; round < rounds; round++) {
                    List<LockTarget> mine = new ArrayList<>(objects);
                    Collections.shuffle(mine);
                    together.await(10, TimeUnit.SECONDS);
                    probe.lock(event, mine.subList(0, 5));
                }
                return null;
            }));
        }
        for (Future<?> result : results) {
            result.get(60, TimeUnit.SECONDS); // a deadlock would surface here as SQLSTATE 40P01
        }
    }

    @Test
    void sharedEventHoldersDoNotBlockEachOtherButAnExclusiveHolderBlocksThem() throws Exception {
        long event = newEventId();
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch secondHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<?> first = threads.submit(() -> holding(event, quotas(1, 1), firstHeld, release));
        Future<?> second = threads.submit(() -> holding(event, quotas(2, 1), secondHeld, release));
        assertThat(firstHeld.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(secondHeld.await(5, TimeUnit.SECONDS)).as("a second shared holder of the event gets in").isTrue();

        CountDownLatch exclusiveHeld = new CountDownLatch(1);
        CountDownLatch releaseExclusive = new CountDownLatch(1);
        Future<?> exclusive = threads.submit(() -> holding(event, quotas(100, 21), exclusiveHeld, releaseExclusive));
        awaitWaiterOn(LockTarget.event(event).key());
        assertThat(exclusiveHeld.getCount()).as("the exclusive event lock waits for the shared holders").isEqualTo(1);
        release.countDown();
        first.get(10, TimeUnit.SECONDS);
        second.get(10, TimeUnit.SECONDS);
        assertThat(exclusiveHeld.await(5, TimeUnit.SECONDS)).isTrue();

        CountDownLatch thirdHeld = new CountDownLatch(1);
        Future<?> third = threads.submit(() -> holding(event, quotas(3, 1), thirdHeld, new CountDownLatch(0)));
        awaitWaiterOn(LockTarget.event(event).key());
        assertThat(thirdHeld.getCount()).as("a shared holder waits for the exclusive one").isEqualTo(1);
        releaseExclusive.countDown();
        exclusive.get(10, TimeUnit.SECONDS);
        third.get(10, TimeUnit.SECONDS);
        assertThat(thirdHeld.getCount()).isZero();
    }

    @Test
    void twentyObjectsAreLockedEachWithTheEventShared() {
        long event = newEventId();
        List<LockProbe.HeldLock> held = probe.lockAndListHeld(event, quotas(1, 20));
        assertThat(held).hasSize(21);
        assertThat(held.get(0)).isEqualTo(new LockProbe.HeldLock(LockTarget.event(event).key(), "ShareLock"));
        assertThat(held.subList(1, 21)).extracting(LockProbe.HeldLock::mode).containsOnly("ExclusiveLock");
    }

    @Test
    void twentyOneObjectsHoldOnlyTheEventLockExclusively() {
        long event = newEventId();
        List<LockProbe.HeldLock> held = probe.lockAndListHeld(event, quotas(1, 21));
        assertThat(held).containsExactly(new LockProbe.HeldLock(LockTarget.event(event).key(), "ExclusiveLock"));
    }

    @Test
    void duplicateObjectsCountOnceTowardsTheLimit() {
        long event = newEventId();
        List<LockTarget> twentyTwiceOver = new ArrayList<>(quotas(1, 20));
        twentyTwiceOver.addAll(quotas(1, 20));
        assertThat(probe.lockAndListHeld(event, twentyTwiceOver)).hasSize(21);
    }

    @Test
    void aHeldLockMakesTheSecondCallerFailAtTheBoundWithNothingWritten() throws Exception {
        long event = newEventId();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<?> holder = threads.submit(() -> holding(event, quotas(7, 1), held, release));
        assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();

        String slug = "never-written-" + event;
        long started = System.nanoTime();
        assertThatThrownBy(() -> probe.createEventThenLock(slug, event, quotas(7, 1)))
                .isInstanceOf(LockTimeoutException.class);
        Duration waited = Duration.ofNanos(System.nanoTime() - started);
        release.countDown();
        holder.get(10, TimeUnit.SECONDS);

        assertThat(waited).isBetween(config.timeout().minusMillis(50), config.timeout().plusMillis(1500));
        assertThat(count("SELECT count(*) FROM events WHERE slug = ?", slug)).isZero();
    }

    @Test
    void twentyContendedLocksWaitForOneBoundInTotalNotTwenty() throws Exception {
        long event = newEventId();
        List<LockTarget> objects = quotas(1, 20);
        List<CountDownLatch> releases = new ArrayList<>();
        List<Future<?>> holders = new ArrayList<>();
        for (LockTarget object : objects) {
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            releases.add(release);
            holders.add(threads.submit(() -> holding(event, List.of(object), held, release)));
            assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();
        }
        // Each holder lets go after half the bound, one after another: a per-lock timeout would never
        // fire and the caller would wait about ten bounds; the total bound must stop it after one.
        long step = config.timeout().toNanos() / 2;
        var releaser = Executors.newSingleThreadScheduledExecutor();
        for (int i = 0; i < releases.size(); i++) {
            releaser.schedule(releases.get(i)::countDown, step * (i + 1), TimeUnit.NANOSECONDS);
        }
        long started = System.nanoTime();
        try {
            assertThatThrownBy(() -> probe.lock(event, objects)).isInstanceOf(LockTimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(config.timeout().multipliedBy(2));
        } finally {
            releases.forEach(CountDownLatch::countDown);
            releaser.shutdownNow();
        }
        for (Future<?> holder : holders) {
            holder.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void refusesToLockOutsideATransaction() {
        assertThatThrownBy(() -> probe.lockWithoutTransaction(newEventId(), quotas(1, 1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("@DurableTransaction");
    }

    @Test
    void refusesToLockInATransactionThatIsNotDurable() {
        assertThatThrownBy(() -> probe.lockInPlainTransaction(newEventId(), quotas(1, 1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("@DurableTransaction");
    }

    @Test
    void refusesToLockInATransactionBegunInsideADurableOne() {
        assertThatThrownBy(() -> probe.lockInTransactionBegunInside(newEventId(), quotas(1, 1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("@DurableTransaction");
    }

    @Test
    void refusesToStartADurableTransactionInsideAnother() {
        assertThatThrownBy(() -> probe.callDurableInsidePlainTransaction(probe, newEventId(), quotas(1, 1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("inside another transaction");
    }

    @Test
    void refusesToLockTwiceInOneTransaction() {
        assertThatThrownBy(() -> probe.lockTwice(newEventId(), quotas(1, 1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already taken");
    }

    @Test
    void locksAreReleasedWhenTheTransactionEnds() {
        long event = newEventId();
        probe.lock(event, quotas(1, 3));
        assertThat(count("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = ?",
                (int) LockTarget.event(event).key())).isZero();
    }

    private Void holding(long event, List<LockTarget> targets, CountDownLatch held, CountDownLatch release)
            throws InterruptedException {
        probe.lockAndHold(event, targets, held, release);
        return null;
    }

    /** Polls pg_locks, with a deadline, until some transaction waits for {@code key}. */
    private void awaitWaiterOn(long key) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                + " AND classid = ? AND objid = ?";
        while (count(waiting, (int) (key >>> 32), (int) key) == 0) {
            assertThat(System.nanoTime()).as("a waiter on lock key %d", key).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    private long count(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<LockTarget> quotas(long firstId, int count) {
        return LongStream.range(firstId, firstId + count).mapToObj(id -> LockTarget.quota(id, null)).toList();
    }

    /** Lock keys are global: each test uses an event id of its own so tests never meet. */
    private static long newEventId() {
        return ThreadLocalRandom.current().nextLong(1, 1L << 55); // an event's id has 55 bits (LockTarget)
    }
}

package io.ticketing.reservations.locking;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import io.quarkus.narayana.jta.QuarkusTransaction;

/** Transactions that take locks the way the flows do, and hold them until the test says so. */
@ApplicationScoped
public class LockProbe {

    /** One row of pg_locks for an advisory lock of the current backend. */
    public record HeldLock(long key, String mode) {
    }

    @Inject
    AdvisoryLocks locks;

    @Inject
    EntityManager entityManager;

    @DurableTransaction
    public void lockAndHold(long eventId, List<LockTarget> targets, CountDownLatch acquired, CountDownLatch release)
            throws InterruptedException {
        locks.lockObjects(eventId, targets);
        acquired.countDown();
        if (!release.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never released the locks");
        }
    }

    /** Locks that a transaction on another thread holds until {@link #close}. */
    public record Held(CountDownLatch release, CompletableFuture<Void> holder) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            release.countDown();
            holder.get(10, TimeUnit.SECONDS);
        }
    }

    /** {@link #lockAndHold} on another thread; returns once the locks are held. */
    public Held holdInBackground(long eventId, List<LockTarget> targets) throws InterruptedException {
        CountDownLatch acquired = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
            try {
                lockAndHold(eventId, targets, acquired, release);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (!acquired.await(5, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the locks were not taken within 5 s");
        }
        return new Held(release, holder);
    }

    @DurableTransaction
    public void holdEventExclusively(long eventId, CountDownLatch acquired, CountDownLatch release)
            throws InterruptedException {
        locks.lockEvent(eventId);
        acquired.countDown();
        if (!release.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never released the lock");
        }
    }

    @DurableTransaction
    public void lock(long eventId, List<LockTarget> targets) {
        locks.lockObjects(eventId, targets);
    }

    @DurableTransaction
    public List<HeldLock> lockAndListHeld(long eventId, List<LockTarget> targets) {
        locks.lockObjects(eventId, targets);
        return heldByThisTransaction();
    }

    /** Writes first, then locks: if the lock times out the write must be gone too. */
    @DurableTransaction
    public void createEventThenLock(String slug, long eventId, List<LockTarget> targets) {
        entityManager.createNativeQuery("INSERT INTO events (slug, name, currency) VALUES (?1, 'probe', 'EUR')")
                .setParameter(1, slug)
                .executeUpdate();
        locks.lockObjects(eventId, targets);
    }

    @DurableTransaction
    public void lockTwice(long eventId, List<LockTarget> targets) {
        locks.lockObjects(eventId, targets);
        locks.lockObjects(eventId, targets);
    }

    @DurableTransaction
    public void lockInTransactionBegunInside(long eventId, List<LockTarget> targets) {
        QuarkusTransaction.requiringNew().run(() -> locks.lockObjects(eventId, targets));
    }

    @Transactional
    public void lockInPlainTransaction(long eventId, List<LockTarget> targets) {
        locks.lockObjects(eventId, targets);
    }

    public void lockWithoutTransaction(long eventId, List<LockTarget> targets) {
        locks.lockObjects(eventId, targets);
    }

    @Transactional
    public void callDurableInsidePlainTransaction(LockProbe self, long eventId, List<LockTarget> targets) {
        self.lock(eventId, targets);
    }

    @SuppressWarnings("unchecked")
    private List<HeldLock> heldByThisTransaction() {
        List<Object[]> rows = entityManager.createNativeQuery("""
                SELECT (classid::bigint << 32) | objid::bigint, mode
                FROM pg_locks
                WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
                ORDER BY 1""").getResultList();
        return rows.stream().map(row -> new HeldLock(((Number) row[0]).longValue(), (String) row[1])).toList();
    }
}

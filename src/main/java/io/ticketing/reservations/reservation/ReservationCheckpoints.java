package io.ticketing.reservations.reservation;

import jakarta.inject.Singleton;

import io.quarkus.arc.DefaultBean;

/**
 * The moments of a reservation where a race is decided, named so that a test can hold a flow there and make the
 * race certain rather than likely. In the service they do nothing.
 */
public interface ReservationCheckpoints {

    /** The claims' items and quotas are read (of {@code requests}, in a batch); nothing is locked yet. */
    void beforeLocks(long eventId, int requests);

    /**
     * Locked, counted and decided: found to fit, with what the flow sent with the locks written but not committed, or
     * refused, not yet rolled back (in a batch of {@code requests}, decided and not yet written).
     */
    void afterChecks(long eventId, int requests);

    /**
     * A request alone was decided and found to fit: what it sent with the locks is written, not committed. A test may
     * end it there, to learn what a write would do without leaving anything behind.
     */
    void fits(long eventId);

    /** A request is about to take the requests waiting in its queue as the next batch ({@link ClaimBatches}). */
    void beforeBatch(long eventId);

    /**
     * Which of the event's batch queues on this replica a request for cart {@code cartId} joins: in the service there
     * is one, and requests on other replicas meet it at the locks. A test may deal requests out to several, as if
     * they had come to several replicas, so that batches of one event run at the same time.
     */
    int batchQueue(long eventId, String cartId);

    @DefaultBean
    @Singleton
    class None implements ReservationCheckpoints {

        @Override
        public void beforeLocks(long eventId, int requests) {
        }

        @Override
        public void afterChecks(long eventId, int requests) {
        }

        @Override
        public void fits(long eventId) {
        }

        @Override
        public void beforeBatch(long eventId) {
        }

        @Override
        public int batchQueue(long eventId, String cartId) {
            return 0;
        }
    }
}

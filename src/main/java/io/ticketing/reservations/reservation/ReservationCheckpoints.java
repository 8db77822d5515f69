package io.ticketing.reservations.reservation;

import jakarta.inject.Singleton;

import io.quarkus.arc.DefaultBean;

/**
 * The two moments of a reservation where a race is decided, named so that a test can hold a flow there and make
 * the race certain rather than likely. In the service they do nothing.
 */
public interface ReservationCheckpoints {

    /** The claims' items and quotas are read; nothing is locked yet. */
    void beforeLocks(long eventId);

    /**
     * Locked, counted and found to fit; what the flow sent with the locks is written but not committed (in a batch
     * of {@code requests}, decided and not yet written).
     */
    void afterChecks(long eventId, int requests);

    @DefaultBean
    @Singleton
    class None implements ReservationCheckpoints {

        @Override
        public void beforeLocks(long eventId) {
        }

        @Override
        public void afterChecks(long eventId, int requests) {
        }
    }
}

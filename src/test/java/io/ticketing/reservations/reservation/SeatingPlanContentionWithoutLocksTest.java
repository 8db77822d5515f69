package io.ticketing.reservations.reservation;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.locking.SkipLocking;

/** The twin of {@link SeatingPlanContentionTest}: the same click race with the advisory locks off, which sells twice. */
@QuarkusTest
@TestProfile(SkipLocking.class)
class SeatingPlanContentionWithoutLocksTest extends SeatingPlanRaces {

    @Override
    boolean locking() {
        return false;
    }
}

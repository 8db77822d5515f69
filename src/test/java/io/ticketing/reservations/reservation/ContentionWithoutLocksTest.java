package io.ticketing.reservations.reservation;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.locking.SkipLocking;

/** The twin of {@link ContentionTest}: the same races with the advisory locks off, each of which must oversell. */
@QuarkusTest
@TestProfile(SkipLocking.class)
class ContentionWithoutLocksTest extends Races {

    @Override
    boolean locking() {
        return false;
    }
}

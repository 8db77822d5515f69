package io.ticketing.reservations.reservation;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.locking.SkipLocking;

/** The twin of {@link ChannelContentionTest}: the same races with the advisory locks off, each of which must oversell. */
@QuarkusTest
@TestProfile(SkipLocking.class)
class ChannelContentionWithoutLocksTest extends ChannelRaces {

    @Override
    boolean locking() {
        return false;
    }
}

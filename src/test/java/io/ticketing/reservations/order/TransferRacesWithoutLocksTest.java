package io.ticketing.reservations.order;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.locking.SkipLocking;

/** The twin of {@link TransferRacesTest}: the same races without the locks, where both racers win. */
@QuarkusTest
@TestProfile(SkipLocking.class)
class TransferRacesWithoutLocksTest extends TransferRaces {

    @Override
    boolean locking() {
        return false;
    }
}

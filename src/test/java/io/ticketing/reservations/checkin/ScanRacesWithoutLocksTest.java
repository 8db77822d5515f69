package io.ticketing.reservations.checkin;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.locking.SkipLocking;

/** The twin of {@link ScanRacesTest}: the same race without the ticket's row lock, which must let it in twice. */
@QuarkusTest
@TestProfile(SkipLocking.class)
class ScanRacesWithoutLocksTest extends ScanRaces {

    @Override
    boolean locking() {
        return false;
    }
}

package io.ticketing.reservations.reservation;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.locking.ProductionLockBound;

/** {@link ChannelRaces} with the locks: each channel gets exactly what is its to sell. */
@QuarkusTest
@TestProfile(ProductionLockBound.class)
class ChannelContentionTest extends ChannelRaces {

    @Override
    boolean locking() {
        return true;
    }
}

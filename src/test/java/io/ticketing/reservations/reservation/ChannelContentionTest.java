package io.ticketing.reservations.reservation;

import io.quarkus.test.junit.QuarkusTest;

/** {@link ChannelRaces} with the locks: each channel gets exactly what is its to sell. */
@QuarkusTest
class ChannelContentionTest extends ChannelRaces {

    @Override
    boolean locking() {
        return true;
    }
}

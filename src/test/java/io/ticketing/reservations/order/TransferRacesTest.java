package io.ticketing.reservations.order;

import io.quarkus.test.junit.QuarkusTest;

/** {@link TransferRaces} with the buyer's advisory lock and the ticket's row lock, where one racer of two wins. */
@QuarkusTest
class TransferRacesTest extends TransferRaces {

    @Override
    boolean locking() {
        return true;
    }
}

package io.ticketing.reservations.reservation;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.locking.SkipLocking;

/** The twin of {@link OraclePropertyTest}, with the advisory locks off: the oracle must find an oversell. */
@QuarkusTest
@TestProfile(SkipLocking.class)
class OraclePropertyWithoutLocksTest extends OracleProperty {

    @Override
    boolean locking() {
        return false;
    }
}

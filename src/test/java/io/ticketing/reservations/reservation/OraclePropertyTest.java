package io.ticketing.reservations.reservation;

import io.quarkus.test.junit.QuarkusTest;

/** {@link OracleProperty} with the locks: no sequence of operations passes the oracle. */
@QuarkusTest
class OraclePropertyTest extends OracleProperty {

    @Override
    boolean locking() {
        return true;
    }
}

package io.ticketing.reservations.locking;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The service with its advisory locks switched off, as pretix's {@code skip-locking} test setting does: every
 * flow still runs its statements in the same order, but the statement that would take the locks takes none.
 * The contention tests' twins run under it and show the oversell the locks prevent.
 */
public class SkipLocking implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        // Combined claims are decided one batch at a time per event on a replica, which alone would keep the twins
        // of one replica from overselling adds; off, every add is a transaction of its own, as across replicas.
        return Map.of("quarkus.arc.selected-alternatives", NoAdvisoryLocks.class.getName(), "reservation.combine",
                "false");
    }
}

package io.ticketing.reservations.locking;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.ticketing.reservations.checkin.NoTicketLocks;

/**
 * The service with its advisory locks switched off, as pretix's {@code skip-locking} test setting does: every
 * flow still runs its statements in the same order, but the statement that would take the locks takes none. A scan's
 * row lock on its ticket (contract section 14) goes too.
 * The contention tests' twins run under it and show the oversell the locks prevent.
 */
public class SkipLocking implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        // Combined claims stay on: the races deal their racers out to batch queues as to several replicas
        // (reservation/RacePauses), whose batches nothing but the locks keeps apart.
        return Map.of("quarkus.arc.selected-alternatives",
                NoAdvisoryLocks.class.getName() + "," + NoTicketLocks.class.getName());
    }
}

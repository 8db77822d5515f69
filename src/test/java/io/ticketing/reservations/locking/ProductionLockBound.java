package io.ticketing.reservations.locking;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The service with production's lock bound (3 s) instead of the tests' 1 s. A race of fifty buyers held at one lock
 * (reservation/RacePauses) spends part of each bound before its lock, on two busy cores: on a slow day the whole
 * second went there, racers heard {@code lock_timeout} as they reached the lock, retried, and were never all waiting
 * at once, so the race was never decided. A real buyer has the three seconds.
 */
public class ProductionLockBound implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        // Named as application.properties names the tests' bound, so that this one replaces it.
        return Map.of("%test.lock.timeout", "3s");
    }
}

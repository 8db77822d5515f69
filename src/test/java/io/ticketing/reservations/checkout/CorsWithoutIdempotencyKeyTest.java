package io.ticketing.reservations.checkout;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** {@link CorsRefusalTest} without {@code Idempotency-Key}: the page's first change, its place in line, is refused. */
@QuarkusTest
@TestProfile(CorsWithoutIdempotencyKeyTest.Profile.class)
class CorsWithoutIdempotencyKeyTest extends CorsRefusalTest {

    @Override
    long ticketsTaken() {
        return 0;
    }

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return corsHeadersWithout("Idempotency-Key");
        }
    }
}

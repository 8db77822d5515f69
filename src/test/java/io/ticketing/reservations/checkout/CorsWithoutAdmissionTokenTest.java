package io.ticketing.reservations.checkout;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** {@link CorsRefusalTest} without {@code Admission-Token}: the page is let in, and its cart is refused. */
@QuarkusTest
@TestProfile(CorsWithoutAdmissionTokenTest.Profile.class)
class CorsWithoutAdmissionTokenTest extends CorsRefusalTest {

    @Override
    long ticketsTaken() {
        return 1;
    }

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return corsHeadersWithout("Admission-Token");
        }
    }
}

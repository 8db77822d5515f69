package io.ticketing.reservations.support;

import static io.restassured.RestAssured.given;

import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

/**
 * Requests to health and metrics: on the API port as the run command serves them, or on the management port where
 * the service was built with its management interface, as the image is ({@link Interface}).
 */
public final class Management {

    private Management() {
    }

    public static RequestSpecification management() {
        return given().port(port());
    }

    public static int port() {
        Config config = ConfigProvider.getConfig();
        if (config.getOptionalValue("quarkus.management.enabled", Boolean.class).orElse(false)) {
            return config.getValue("quarkus.management.test-port", Integer.class);
        }
        return RestAssured.port;
    }

    /** The service as the image builds it: health and metrics on a port of their own. */
    public static class Interface implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.management.enabled", "true");
        }
    }
}

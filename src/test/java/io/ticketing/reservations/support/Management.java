package io.ticketing.reservations.support;

import static io.restassured.RestAssured.given;

import org.eclipse.microprofile.config.ConfigProvider;

import io.restassured.specification.RequestSpecification;

/** Requests to the management interface (health, metrics), which listens on a port of its own. */
public final class Management {

    private Management() {
    }

    public static RequestSpecification management() {
        return given().port(port());
    }

    /** The port the test's management interface was given (a random one, like the API's). */
    public static int port() {
        return ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
    }
}

package io.ticketing.reservations.operations;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Management.management;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.ticketing.reservations.support.Api;
import io.ticketing.reservations.support.Management;

/** Built as the image is, health and metrics leave the API port, and the API's document stays on it. */
@QuarkusTest
@TestProfile(Management.Interface.class)
class ManagementInterfaceTest {

    @Test
    void healthAndMetricsAnswerOnTheManagementPortOnly() {
        assertThat(Management.port()).isNotEqualTo(RestAssured.port);
        management().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        management().get("/q/metrics").then().statusCode(200).body(containsString("inventory_lock_timeouts_total"));
        given().get("/q/health/ready").then().statusCode(404);
        // The API port guards the path for the builds that serve metrics there; here, with a token, nothing is there.
        given().header("Authorization", Api.ADMIN).get("/q/metrics").then().statusCode(404);
    }

    @Test
    void theApiPortKeepsTheOpenApiDocument() {
        given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
                .body("info.title", equalTo("Inventory reservation service"));
        management().get("/q/openapi").then().statusCode(404);
    }
}

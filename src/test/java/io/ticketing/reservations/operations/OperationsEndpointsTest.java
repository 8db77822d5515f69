package io.ticketing.reservations.operations;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Management.management;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class OperationsEndpointsTest {

    @Test
    void livenessIsUp() {
        management().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void startupProbeIsUp() {
        management().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void readinessIsUpWhileTheDatabaseAnswers() {
        management().get("/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("database"));
    }

    @Test
    void metricsArePublishedForPrometheus() {
        management().get("/q/metrics").then().statusCode(200)
                .body(containsString("inventory_lock_timeouts_total"))
                .body(containsString("jvm_memory_used_bytes"));
    }

    @Test
    void openApiDocumentDescribesTheApi() {
        given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
                .body("info.title", equalTo("Inventory reservation service"))
                .body("paths", hasKey("/api/v1/events/{event}"));
    }

    @Test
    void swaggerUiIsServed() {
        given().get("/q/swagger-ui/").then().statusCode(200).body(containsString("swagger"));
    }

    @Test
    void unknownPathsAnswerWithAProblem() {
        given().get("/api/v1/nothing-here").then().statusCode(404)
                .contentType("application/problem+json")
                .body("code", equalTo("not_found"));
    }
}

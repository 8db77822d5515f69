package io.ticketing.reservations.operations;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Management.management;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Api;

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

    /**
     * On the API port (every build but the image's) metrics answer admin tokens only: the public reaches that port
     * (contract section 11). The image serves them on the management port, which only Prometheus reaches.
     */
    @Test
    void metricsArePublishedForPrometheusAndAnswerNoOneWithoutAToken() {
        management().get("/q/metrics").then().statusCode(401);
        management().header("Authorization", Api.STOREFRONT).get("/q/metrics").then().statusCode(403);
        management().header("Authorization", Api.ADMIN).get("/q/metrics").then().statusCode(200)
                .body(containsString("inventory_lock_timeouts_total"))
                .body(containsString("jvm_memory_used_bytes"));
    }

    @Test
    void metricsNameRoutesByTheirTemplatesNeverByAPathAClientSent() {
        given().get("/api/v1/events/leak-test/carts/SECRETCART123").then().statusCode(401);
        given().header("Authorization", "Bearer wrong").get("/api/v1/events/leak-test/orders/SECRETORDER456").then()
                .statusCode(401);
        given().urlEncodingEnabled(false).header("Authorization", Api.STOREFRONT)
                .get("/api/v1/events/leak-test/carts/SECRETDOTS789/%2e%2e").then().statusCode(400);
        String metrics = management().header("Authorization", Api.ADMIN).get("/q/metrics").then().statusCode(200)
                .extract().asString();
        assertThat(metrics).doesNotContain("SECRETCART123").doesNotContain("SECRETORDER456")
                .doesNotContain("leak-test");
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

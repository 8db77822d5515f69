package io.ticketing.reservations.locking;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Management.management;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Api;

@QuarkusTest
class LockTimeoutHttpTest {

    @Inject
    LockProbe probe;

    @Test
    void aLockTimeoutIsARetryable503ProblemAndIsCounted() throws Exception {
        long event = 424_242;
        double timeoutsBefore = lockTimeoutsCounted();
        try (LockProbe.Held held = probe.holdInBackground(event, List.of(LockTarget.quota(9, null)))) {
            given().post("/test/locks/{event}/quotas/{quota}", event, 9)
                    .then()
                    .statusCode(503)
                    .contentType("application/problem+json")
                    .header("Retry-After", "1")
                    .body("code", equalTo("lock_timeout"))
                    .body("status", equalTo(503))
                    .body("title", equalTo("Too busy"));
        }
        given().post("/test/locks/{event}/quotas/{quota}", event, 9).then().statusCode(204);
        assertThat(lockTimeoutsCounted()).isEqualTo(timeoutsBefore + 1);
    }

    @Test
    void lockWaitTimeIsExposedAsAMetric() {
        given().post("/test/locks/{event}/quotas/{quota}", 434_343, 1).then().statusCode(204);
        management().header("Authorization", Api.ADMIN).get("/q/metrics").then().statusCode(200)
                .body(containsString("inventory_lock_wait_seconds_count"))
                .body(containsString("inventory_lock_wait_seconds{quantile=\"0.99\""));
        assertThat(metric("inventory_lock_wait_seconds_count")).isGreaterThan(0);
    }

    private static double lockTimeoutsCounted() {
        return metric("inventory_lock_timeouts_total");
    }

    private static double metric(String name) {
        String body = management().header("Authorization", Api.ADMIN).get("/q/metrics").then().statusCode(200).extract()
                .asString();
        return body.lines()
                .filter(line -> line.startsWith(name + " ") || line.startsWith(name + "{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}

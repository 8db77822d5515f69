package io.ticketing.reservations.auth;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Management.management;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.http.runtime.QuarkusErrorHandler;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities;
import io.ticketing.reservations.support.Api;
import io.vertx.ext.web.Router;

@QuarkusTest
class AuthFailuresTest {

    private static final String PROBE = "X-Auth-Failure-Handler-Probe";

    /**
     * On a request that asks, says whether it still carries an authentication failure handler once every filter up to
     * authorization has run: Quarkus REST's would mean that its filter ran first and built its route table.
     */
    @Singleton
    static class Probe {
        void install(@Observes Router router) {
            router.route().order(-SecurityHandlerPriorities.AUTHORIZATION).handler(context -> {
                if (context.request().getHeader(PROBE) != null) {
                    Object handler = context.get(QuarkusHttpUser.AUTH_FAILURE_HANDLER);
                    context.response().putHeader(PROBE, handler == null ? "none" : handler.getClass().getName());
                }
                context.next();
            });
        }
    }

    @Test
    void noRequestCarriesAHandlerForQuarkusRestsFilterToReplace() {
        given().header(PROBE, "1").get("/api/v1/nothing-here").then().statusCode(404).header(PROBE, "none");
        given().header(PROBE, "1").header("Authorization", Api.STOREFRONT).get("/api/v1/events/no-such-event")
                .then().header(PROBE, "none");
    }

    /**
     * What a refused token is answered with does not change: one 401 problem with its challenge, with no error logged
     * (a handler left to fail the request when its identity is refused would end it before {@code ProblemMapper}
     * answers, which Quarkus's error handler logs as "Response has already been written"), counted under its route's
     * template. That error is logged while the first request is served, so it is in by the end of the second.
     */
    @Test
    void anUnknownTokenIsStillOneProblemWithItsChallengeCountedUnderItsRoute() {
        List<LogRecord> errors = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    errors.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger errorHandler = Logger.getLogger(QuarkusErrorHandler.class.getName());
        errorHandler.addHandler(capture);
        try {
            for (int request = 0; request < 2; request++) {
                given().header("Authorization", "Bearer not-a-token").get("/api/v1/events/no-such-event/orders/NONE")
                        .then().statusCode(401).contentType("application/problem+json")
                        .body("code", equalTo("unauthorized")).header("WWW-Authenticate", "Bearer realm=\"inventory\"");
            }
        } finally {
            errorHandler.removeHandler(capture);
        }
        assertThat(errors).extracting(LogRecord::getMessage).isEmpty();
        String metrics = management().header("Authorization", Api.ADMIN).get("/q/metrics").then().statusCode(200)
                .extract().asString();
        assertThat(metrics.lines()).as("the refusals counted under the route's template")
                .anyMatch(line -> line.startsWith("http_server_requests_seconds_count{")
                        && line.contains("status=\"401\"")
                        && line.contains("uri=\"/api/v1/events/{event}/orders/{code}\""));
    }
}

package io.ticketing.reservations.tracing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.locking.LockProbe;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.support.Eventually;

/** With tracing turned on, as one variable does in production, the lock acquisition is a span of its own. */
@QuarkusTest
@TestProfile(TracingTest.TracingOn.class)
class TracingTest {

    public static class TracingOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.otel.sdk.disabled", "false", "quarkus.otel.exporter.otlp.enabled", "false",
                    "quarkus.otel.bsp.schedule.delay", "10ms");
        }
    }

    /** Where the spans go in this test instead of an OTLP collector. */
    @Singleton
    static class Spans {
        @Produces
        @Singleton
        InMemorySpanExporter exporter() {
            return InMemorySpanExporter.create();
        }
    }

    @Inject
    InMemorySpanExporter spans;

    @Inject
    LockProbe probe;

    @BeforeEach
    void forgetEarlierSpans() {
        spans.reset();
    }

    @Test
    void theLockAcquisitionIsASpanOfTheRequestWithItsObjectsAndItsWait() {
        given().post("/test/locks/{event}/quotas/{quota}", 515_151, 3).then().statusCode(204);

        SpanData acquisition = awaitSpan("inventory.lock.acquire");
        assertThat(acquisition.getAttributes().get(AttributeKey.longKey("inventory.lock.objects"))).isEqualTo(1);
        assertThat(acquisition.getAttributes().get(AttributeKey.booleanKey("inventory.lock.event_exclusive")))
                .isFalse();
        assertThat(acquisition.getAttributes().get(AttributeKey.longKey("inventory.lock.wait_ms")))
                .isGreaterThanOrEqualTo(0);
        SpanData request = awaitSpan(span -> span.getKind() == SpanKind.SERVER
                && span.getTraceId().equals(acquisition.getTraceId()), "the request's server span");
        assertThat(acquisition.getParentSpanId()).as("the acquisition is a child of the request's span")
                .isEqualTo(request.getSpanId());
    }

    @Test
    void aLockTimeoutEndsItsSpanAsAnErrorAfterTheWait() throws Exception {
        try (LockProbe.Held held = probe.holdInBackground(525_252, List.of(LockTarget.quota(4, null)))) {
            given().post("/test/locks/{event}/quotas/{quota}", 525_252, 4).then().statusCode(503);
        }

        SpanData timedOut = awaitSpan(span -> span.getName().equals("inventory.lock.acquire")
                && span.getStatus().getStatusCode() == StatusCode.ERROR, "a failed lock acquisition");
        assertThat(timedOut.getStatus().getDescription()).isEqualTo("lock_timeout");
        assertThat(timedOut.getAttributes().get(AttributeKey.longKey("inventory.lock.wait_ms")))
                .as("the test profile's lock bound is 1 s").isGreaterThanOrEqualTo(900);
    }

    @Test
    void aTokenInTheQueryNeverReachesASpan() {
        given().queryParam("access_token", "test-storefront-token").queryParam("date_id", 1)
                .get("/api/v1/events/{event}/availability/stream", "no-such-event").then().statusCode(404);

        SpanData request = awaitSpan(span -> span.getKind() == SpanKind.SERVER
                && String.valueOf(span.getAttributes().get(AttributeKey.stringKey("url.query"))).contains("date_id=1"),
                "the stream request's server span");
        assertThat(request.getAttributes().asMap().values()).as("the span's attributes")
                .noneMatch(value -> String.valueOf(value).contains("test-storefront-token"))
                .as("a path's values (contract section 6)").noneMatch(value -> String.valueOf(value)
                        .contains("no-such-event"));
        assertThat(request.getAttributes().get(AttributeKey.stringKey("url.path"))).isEqualTo("/api/v1/events/…");
        assertThat(request.getAttributes().get(AttributeKey.stringKey("url.query"))).contains("access_token=REDACTED")
                .contains("date_id=1");
    }

    private SpanData awaitSpan(String name) {
        return awaitSpan(span -> span.getName().equals(name), "a span named " + name);
    }

    private SpanData awaitSpan(java.util.function.Predicate<SpanData> wanted, String what) {
        Eventually.within(Duration.ofSeconds(5), what,
                () -> spans.getFinishedSpanItems().stream().anyMatch(wanted));
        Optional<SpanData> found = spans.getFinishedSpanItems().stream().filter(wanted).findFirst();
        return found.orElseThrow();
    }
}

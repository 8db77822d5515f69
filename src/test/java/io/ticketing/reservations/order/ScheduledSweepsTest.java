package io.ticketing.reservations.order;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Sql;

/** The scheduler runs the sweeps on its own, every {@code tasks.sweep-interval}. */
@QuarkusTest
@TestProfile(ScheduledSweepsTest.EveryFewMilliseconds.class)
class ScheduledSweepsTest {

    public static class EveryFewMilliseconds implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tasks.sweep-interval", "200ms");
        }
    }

    @Inject
    Sql sql;

    @Test
    void anOverdueOrderExpiresWithoutAnyoneCallingTheSweep() {
        String event = newEvent("scheduled-expiry");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        String code = checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201).extract()
                .path("code");
        sql.passDeadline(code);
        Eventually.within(Duration.ofSeconds(10), "the scheduled sweep expires the order",
                () -> "expired".equals(admin().get("/api/v1/events/{event}/orders/{code}", event, code).then()
                        .extract().path("status")));
    }
}

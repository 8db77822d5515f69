package io.ticketing.reservations.waitingroom;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.ticketing.reservations.support.SettableClock;

/**
 * A buyer's retry with its {@code Idempotency-Key} replays its first answer whatever changed in between: the network
 * its phone is on, or its admission running out (contract sections 4 and 8). The test's proxy, the loopback, is
 * trusted, so {@code X-Forwarded-For} is the client's address.
 */
@QuarkusTest
class KeyedRetryTest {

    private static final String EVENT = "/api/v1/events/{event}";

    @Inject
    SettableClock clock;

    private static RequestSpecification client(String address) {
        return storefront().header("X-Forwarded-For", address);
    }

    private static String admission(String event) {
        String ticket = storefront().post(EVENT + "/queue", event).then().statusCode(201).extract().path("ticket");
        return WaitingRoomTest.admissionToken(event, ticket);
    }

    @Test
    void anAddRetriedFromAnotherNetworkIsReplayedAndHoldsOnce() {
        String event = newEvent("retry-network");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(item));
        String cart = storefront().post(EVENT + "/carts", event).then().statusCode(201).extract().path("id");
        Map<String, Object> one = Map.of("positions", List.of(Map.of("item_id", item)));

        String onWifi = client("198.51.100.61").header("Idempotency-Key", "k-1").body(one)
                .post(EVENT + "/carts/{cart}/positions", event, cart).then().statusCode(201)
                .header("Idempotent-Replayed", nullValue()).extract().asString();
        String onMobileData = client("203.0.113.61").header("Idempotency-Key", "k-1").body(one)
                .post(EVENT + "/carts/{cart}/positions", event, cart).then().statusCode(201)
                .header("Idempotent-Replayed", "true").extract().asString();

        assertThat(onMobileData).isEqualTo(onWifi);
        storefront().get(EVENT + "/carts/{cart}", event, cart).then().body("positions", hasSize(1));
        admin().get(EVENT + "/quotas/{quota}/availability", event, quota).then().body("cart_positions", equalTo(1));
    }

    @Test
    void aCartOpenedWithAnAdmissionIsReplayedToItsRetryFromAnotherNetwork() {
        String event = newEvent("retry-open");
        WaitingRoomTest.room(event, true, 60_000, null);
        String admission = admission(event);

        String opened = client("198.51.100.62").header("Admission-Token", admission).header("Idempotency-Key", "k-1")
                .post(EVENT + "/carts", event).then().statusCode(201).extract().path("id");
        client("203.0.113.62").header("Admission-Token", admission).header("Idempotency-Key", "k-1")
                .post(EVENT + "/carts", event).then().statusCode(201).header("Idempotent-Replayed", "true")
                .body("id", equalTo(opened));
    }

    @Test
    void anAddAndACheckoutRetriedOnceTheirAdmissionRanOutReplayTheirAnswers() {
        String event = newEvent("retry-admission");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        WaitingRoomTest.room(event, true, 60_000, null);
        String admission = admission(event);
        String cart = storefront().header("Admission-Token", admission).post(EVENT + "/carts", event).then()
                .statusCode(201).extract().path("id");
        Map<String, Object> one = Map.of("positions", List.of(Map.of("item_id", item)));
        Map<String, Object> checkout = Map.of("cart_id", cart, "email", "ada@example.com");
        Response added = storefront().header("Admission-Token", admission).header("Idempotency-Key", "add-1")
                .body(one).post(EVENT + "/carts/{cart}/positions", event, cart);
        added.then().statusCode(201);
        Response placed = storefront().header("Admission-Token", admission).header("Idempotency-Key", "order-1")
                .body(checkout).post(EVENT + "/orders", event);
        placed.then().statusCode(201);

        try {
            clock.set(Instant.now().plus(Duration.ofDays(1)));
            storefront().header("Admission-Token", admission).header("Idempotency-Key", "order-2").body(checkout)
                    .post(EVENT + "/orders", event).then().statusCode(403).body("code", equalTo("admission_required"));

            Response addRetried = storefront().header("Admission-Token", admission).header("Idempotency-Key", "add-1")
                    .body(one).post(EVENT + "/carts/{cart}/positions", event, cart);
            Response checkoutRetried = storefront().header("Admission-Token", admission)
                    .header("Idempotency-Key", "order-1").body(checkout).post(EVENT + "/orders", event);

            addRetried.then().statusCode(201).header("Idempotent-Replayed", "true");
            assertThat(addRetried.asString()).isEqualTo(added.asString());
            checkoutRetried.then().statusCode(201).header("Idempotent-Replayed", "true")
                    .header("Location", equalTo(placed.header("Location")));
            assertThat(checkoutRetried.asString()).isEqualTo(placed.asString());
        } finally {
            clock.reset();
        }
    }
}

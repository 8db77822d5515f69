package io.ticketing.reservations.waitingroom;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Sql;

/** The waiting room (contract section 8): what a storefront sees, and admission at the rate on many replicas. */
@QuarkusTest
class WaitingRoomTest {

    private static final String EVENT = "/api/v1/events/{event}";

    @Inject
    Sql sql;

    @Inject
    Admissions admissions;

    static void room(String event, boolean enabled, Integer perMinute, Instant opensAt) {
        String etag = admin().get(EVENT, event).then().extract().header("ETag");
        Map<String, Object> room = new HashMap<>();
        room.put("enabled", enabled);
        room.put("admission_per_minute", perMinute);
        room.put("opens_at", opensAt == null ? null : opensAt.toString());
        admin().header("If-Match", etag).body(Map.of("waiting_room", room)).patch(EVENT, event).then()
                .statusCode(200).body("waiting_room.enabled", equalTo(enabled));
    }

    private static RequestSpecification admitted(String token) {
        return storefront().header("Admission-Token", token);
    }

    /** Polls the ticket until the background admission gives it a token. */
    static String admissionToken(String event, String ticket) {
        String[] token = new String[1];
        Eventually.within(Duration.ofSeconds(10), "ticket " + ticket + " admitted", () -> {
            token[0] = storefront().get(EVENT + "/queue/{ticket}", event, ticket).then().statusCode(200).extract()
                    .path("admission_token");
            return token[0] != null;
        });
        return token[0];
    }

    @Test
    void anEventWithoutARoomHasNoQueueAndNeedsNoToken() {
        String event = newEvent("room-off");
        storefront().post(EVENT + "/queue", event).then().statusCode(409).body("code", equalTo("waiting_room_off"));
        storefront().post(EVENT + "/carts", event).then().statusCode(201);
    }

    @Test
    void whileTheRoomIsOnEveryCartEndpointNeedsAnAdmissionOfThatEvent() {
        String event = newEvent("room-guard");
        String other = newEvent("room-guard-other");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
        String earlier = storefront().post(EVENT + "/carts", event).then().statusCode(201).extract().path("id");
        room(event, true, 600, null);
        room(other, true, 600, null);

        Eventually.within(Duration.ofSeconds(2), "the room guards the carts within 2 s", () -> storefront()
                .post(EVENT + "/carts", event).statusCode() == 403);
        storefront().post(EVENT + "/carts", event).then().statusCode(403).body("code", equalTo("admission_required"));
        storefront().get(EVENT + "/carts/{cart}", event, earlier).then().statusCode(403);
        storefront().body(Map.of("cart_id", earlier, "email", "ada@example.com")).post(EVENT + "/orders", event)
                .then().statusCode(403).body("code", equalTo("admission_required"));

        String ticket = storefront().post(EVENT + "/queue", event).then().statusCode(201)
                .body("ticket", notNullValue()).extract().path("ticket");
        String token = admissionToken(event, ticket);
        storefront().get(EVENT + "/queue/{ticket}", event, ticket).then().body("position", equalTo(0),
                "admission_token", equalTo(token));
        String cart = admitted(token).post(EVENT + "/carts", event).then().statusCode(201).extract().path("id");
        admitted(token).body(Map.of("positions", List.of(Map.of("item_id", item))))
                .post(EVENT + "/carts/{cart}/positions",
                        event, cart)
                .then().statusCode(201);
        admitted(token).post(EVENT + "/carts/{cart}/extend", event, cart).then().statusCode(200);
        admitted(token).body(Map.of("cart_id", cart, "email", "ada@example.com")).post(EVENT + "/orders", event)
                .then().statusCode(201);

        admitted(token).post(EVENT + "/carts", other).then().statusCode(403);
        admitted(token + "x").post(EVENT + "/carts", event).then().statusCode(403);
        admitted("not-a-token").post(EVENT + "/carts", event).then().statusCode(403);
        storefront().get(EVENT + "/queue/{ticket}", other, ticket).then().statusCode(404);

        room(event, false, 600, null);
        Eventually.within(Duration.ofSeconds(2), "the room lets carts through once off", () -> storefront()
                .post(EVENT + "/carts", event).statusCode() == 201);
    }

    @Test
    void aTicketStillWaitingWhenTheRoomIsTurnedOffCanBeReadAndTheCartsAreOpen() {
        String event = newEvent("room-off-later");
        room(event, true, 1, null);
        String first = storefront().post(EVENT + "/queue", event).then().statusCode(201).extract().path("ticket");
        String second = storefront().post(EVENT + "/queue", event).then().statusCode(201).extract().path("ticket");
        admissionToken(event, first);
        storefront().get(EVENT + "/queue/{ticket}", event, second).then().statusCode(200)
                .body("position", equalTo(0), "admission_token", nullValue(), "estimated_wait_seconds", equalTo(60));
        room(event, false, null, null);
        storefront().get(EVENT + "/queue/{ticket}", event, second).then().statusCode(200)
                .body("admission_token", nullValue(), "estimated_wait_seconds", equalTo(0));
        storefront().post(EVENT + "/queue", event).then().statusCode(409).body("code", equalTo("waiting_room_off"));
    }

    @Test
    void buyersQueuedBeforeTheOpeningAreAdmittedInRandomOrderExactlyAtTheRateByManyReplicas() throws Exception {
        String event = newEvent("room-rate");
        long eventId = sql.number("SELECT id FROM events WHERE slug = ?1", event);
        int perMinute = 600;
        room(event, true, perMinute, Instant.now().plus(Duration.ofHours(1)));
        List<String> arrivals = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            // A hundred buyers, each at an address of its own, as the ingress reports them.
            arrivals.add(storefront().header("X-Forwarded-For", "203.0.113." + i).post(EVENT + "/queue", event).then()
                    .statusCode(201)
                    .body("admission_token", nullValue(), "position", equalTo(i)).extract().path("ticket"));
        }
        // The organiser brings the opening forward: everyone queued so far was queued before it.
        Instant opensAt = Instant.now().plusSeconds(1);
        room(event, true, perMinute, opensAt);

        // Three more replicas' admission rounds race the scheduler's for the whole test.
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch started = new CountDownLatch(3);
        ExecutorService replicas = Executors.newFixedThreadPool(3);
        for (int replica = 0; replica < 3; replica++) {
            replicas.submit(() -> {
                started.countDown();
                while (running.get()) {
                    admissions.admit(eventId);
                }
                return null;
            });
        }
        started.await();
        Eventually.within(Duration.ofSeconds(10), "24 buyers admitted", () -> sql.number(
                "SELECT count(*) FROM queue_tickets WHERE event_id = ?1 AND admitted_at IS NOT NULL", eventId) >= 24);
        running.set(false);
        replicas.shutdown();
        assertThat(replicas.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        List<?> admitted = sql.rows("""
                SELECT id, CAST(extract(epoch FROM admitted_at - CAST(?2 AS timestamptz)) AS float8) FROM queue_tickets
                WHERE event_id = ?1 AND admitted_at IS NOT NULL ORDER BY admitted_at""", eventId, opensAt.toString());
        List<String> order = new ArrayList<>();
        double previous = -1e9;
        for (Object row : admitted) {
            Object[] columns = (Object[]) row;
            double at = ((Number) columns[1]).doubleValue();
            assertThat(at).as("admitted after the opening").isGreaterThan(-0.001);
            assertThat(at - previous).as("slots 60 s / rate apart").isGreaterThan(0.1 - 0.000_01);
            previous = at;
            order.add((String) columns[0]);
        }
        assertThat(order).doesNotHaveDuplicates();
        assertThat(order).as("the lowest places first").containsExactlyElementsOf(sql.rows("""
                SELECT id FROM queue_tickets WHERE event_id = ?1 ORDER BY place LIMIT ?2""", eventId, order.size())
                .stream().map(String.class::cast).toList());
        assertThat(order).as("not in arrival order").isNotEqualTo(arrivals.subList(0, order.size()));
        String last = arrivals.stream().filter(ticket -> !order.contains(ticket)).reduce((a, b) -> b).orElseThrow();
        int waiting = arrivals.size() - order.size();
        storefront().get(EVENT + "/queue/{ticket}", event, last).then().body("position",
                lessThan(waiting), "admission_token", nullValue());

        String late = storefront().post(EVENT + "/queue", event).then().statusCode(201).extract().path("ticket");
        assertThat(sql.number("SELECT count(*) FROM queue_tickets WHERE event_id = ?1 AND place >= "
                + "(SELECT place FROM queue_tickets WHERE id = ?2)", eventId, late))
                .as("a ticket taken after the opening queues behind every earlier one").isEqualTo(1);
    }
}

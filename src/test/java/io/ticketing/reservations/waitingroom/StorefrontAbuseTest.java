package io.ticketing.reservations.waitingroom;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.buyerToken;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.ticketing.reservations.support.Json;
import io.ticketing.reservations.support.Sql;

/**
 * A browser holds the storefront token (contract section 8), so nothing it can send gets around the rush's rules:
 * an admission opens one cart, queue tickets are limited per client address and per buyer, a buyer counts only as
 * the shop's server vouches for it, and an Idempotency-Key never replays another buyer's answer.
 */
@QuarkusTest
class StorefrontAbuseTest {

    private static final String EVENT = "/api/v1/events/{event}";

    @Inject
    Sql sql;

    private static void openRoom(String event) {
        WaitingRoomTest.room(event, true, 60_000, null);
    }

    private static RequestSpecification client(String address) {
        return storefront().header("X-Forwarded-For", address);
    }

    @Test
    void aBotSharingOneAdmissionTakingAThousandTicketsAndClaimingTenBuyersGetsOneCartFewTicketsAndOneBuyer() {
        String event = newEvent("bot");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 1000, List.of(item));
        admin().header("If-Match", "\"0\"").body(Map.of("max_per_buyer", 2)).patch(EVENT + "/items/{item}", event,
                item).then().statusCode(200);
        openRoom(event);

        // A thousand tickets from one address: a handful are taken, the rest refused.
        List<String> tickets = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            var answer = client("198.51.100.7").post(EVENT + "/queue", event);
            if (answer.statusCode() == 201) {
                tickets.add(Json.text(answer, "ticket"));
            } else {
                assertThat(answer.statusCode()).isEqualTo(429);
                assertThat(Json.text(answer, "code")).isEqualTo("too_many_tickets");
                assertThat(answer.header("Retry-After")).isNotNull();
            }
        }
        assertThat(tickets).as("tickets one client holds").hasSize(4);
        client("198.51.100.8").post(EVENT + "/queue", event).then().statusCode(201);

        // Its one admission opens one cart; twenty clients sharing it open none.
        String admission = WaitingRoomTest.admissionToken(event, tickets.get(0));
        String cart = client("198.51.100.7").header("Admission-Token", admission)
                .body(Map.of("buyer_token", buyerToken(event, "bot-0"))).post(EVENT + "/carts", event).then()
                .statusCode(201).extract().path("id");
        for (int i = 1; i <= 20; i++) {
            client("203.0.113." + i).header("Admission-Token", admission).post(EVENT + "/carts", event).then()
                    .statusCode(403).body("code", equalTo("admission_required"));
        }
        assertThat(sql.number("SELECT count(*) FROM carts c JOIN events e ON e.id = c.event_id WHERE e.slug = ?1",
                event)).as("carts opened").isEqualTo(1);

        // Ten buyer ids it makes up count for nothing, with an admission of its own too: the shop vouched for one,
        // and that one's limit holds.
        String another = WaitingRoomTest.admissionToken(event, tickets.get(1));
        for (int i = 1; i <= 10; i++) {
            client("198.51.100.7").header("Admission-Token", another).body(Map.of("buyer", "bot-" + i))
                    .post(EVENT + "/carts", event).then().statusCode(403).body("code", equalTo("buyer_unverified"));
        }
        client("198.51.100.7").header("Admission-Token", admission)
                .body(Map.of("positions", List.of(Map.of("item_id", item, "quantity", 3))))
                .post(EVENT + "/carts/{cart}/positions", event, cart).then().statusCode(409)
                .body("code", equalTo("buyer_limit"));
        // The shared admission lends nothing to a cart it did not open.
        String earlier = newCart(newEvent("bot-other"));
        client("198.51.100.7").header("Admission-Token", admission).get(EVENT + "/carts/{cart}", event, earlier)
                .then().statusCode(404);
        // Its cart gone, the admission opens no other: one cart an admission, ever.
        client("198.51.100.7").header("Admission-Token", admission).delete(EVENT + "/carts/{cart}", event, cart)
                .then().statusCode(204);
        client("198.51.100.7").header("Admission-Token", admission).post(EVENT + "/carts", event).then()
                .statusCode(403).body("code", equalTo("admission_required"));
    }

    @Test
    void addressesAClientWritesIntoXForwardedForCountForNothing() {
        String event = newEvent("forged");
        newQuota(event, 10, List.of(newItem(event, "Ticket", "10")));
        openRoom(event);
        // The test's proxy (the loopback, trusted) appends the address it saw after whatever the client sent.
        for (int i = 0; i < 4; i++) {
            client("203.0.113." + i + ", 198.51.100.50").post(EVENT + "/queue", event).then().statusCode(201);
        }
        client("203.0.113.99, 198.51.100.50").post(EVENT + "/queue", event).then().statusCode(429)
                .body("code", equalTo("too_many_tickets"));
        storefront().header("X-Forwarded-For", "203.0.113.98").header("X-Forwarded-For", "198.51.100.50")
                .post(EVENT + "/queue", event).then().statusCode(429);
        // Another trusted proxy between: still the first address no trusted proxy added.
        client("203.0.113.97, 198.51.100.50, 127.0.0.1").post(EVENT + "/queue", event).then().statusCode(429);
        client("198.51.100.51").post(EVENT + "/queue", event).then().statusCode(201);
    }

    @Test
    void aCartOpenedBeforeTheRoomWasOnTakesAnyAdmissionToTheEvent() {
        String event = newEvent("before-room");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        String cart = newCart(event);
        openRoom(event);
        Map<String, Object> one = Map.of("positions", List.of(Map.of("item_id", item)));
        storefront().body(one).post(EVENT + "/carts/{cart}/positions", event, cart).then().statusCode(403)
                .body("code", equalTo("admission_required"));
        String ticket = client("198.51.100.30").post(EVENT + "/queue", event).then().statusCode(201).extract()
                .path("ticket");
        storefront().header("Admission-Token", WaitingRoomTest.admissionToken(event, ticket)).body(one)
                .post(EVENT + "/carts/{cart}/positions", event, cart).then().statusCode(201);
    }

    @Test
    void aBuyerCountsOnlyAsTheShopVouchesForIt() {
        String event = newEvent("vouched");
        String other = newEvent("vouched-other");
        String token = buyerToken(event, "ada");
        storefront().body(Map.of("buyer", "ada")).post(EVENT + "/carts", event).then().statusCode(403)
                .body("code", equalTo("buyer_unverified"));
        storefront().body(Map.of("buyer_token", token)).post(EVENT + "/carts", event).then().statusCode(201)
                .body("buyer", equalTo("ada"));
        storefront().body(Map.of("buyer_token", token)).post(EVENT + "/carts", other).then().statusCode(403)
                .body("code", equalTo("buyer_unverified"));
        // Its last characters changed, also only in the 2 bits its last character leaves unused (a 32-byte signature
        // in 43 characters: the next character of the alphabet decodes to the same bytes). Neither is the token issued.
        String sameBytes = token.substring(0, token.length() - 1) + (char) (token.charAt(token.length() - 1) + 1);
        for (String forged : List.of(token.substring(0, token.length() - 2) + (token.endsWith("xx") ? "yy" : "xx"),
                sameBytes)) {
            storefront().body(Map.of("buyer_token", forged)).post(EVENT + "/carts", event).then().statusCode(403);
        }
        admin().body(Map.of("buyer", "grace")).post(EVENT + "/carts", event).then().statusCode(201)
                .body("buyer", equalTo("grace"));
        storefront().body(Map.of("buyer", "ada")).post(EVENT + "/buyer_tokens", event).then().statusCode(403);
    }

    @Test
    void aBuyerHoldsOneQueueTicket() {
        String event = newEvent("ticket-per-buyer");
        String buyer = buyerToken(event, "ada");
        openRoom(event);
        client("192.0.2.1").body(Map.of("buyer_token", buyer)).post(EVENT + "/queue", event).then().statusCode(201);
        client("192.0.2.2").body(Map.of("buyer_token", buyer)).post(EVENT + "/queue", event).then().statusCode(429)
                .body("code", equalTo("too_many_tickets"));
    }

    @Test
    void anIdempotencyKeyNeverReplaysAnotherBuyersAnswer() {
        String event = newEvent("keys");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        Map<String, Object> one = Map.of("positions", List.of(Map.of("item_id", item)));

        // Two buyers behind one address reusing one key, as a careless shop might: each holds in its own cart.
        for (String cart : List.of(newCart(event), newCart(event))) {
            client("192.0.2.10").header("Idempotency-Key", "one-key-for-all").body(one)
                    .post(EVENT + "/carts/{cart}/positions", event, cart).then().statusCode(201)
                    .header("Idempotent-Replayed", nullValue()).body("id", equalTo(cart), "positions", hasSize(1));
        }
        // With an admission each, each opens its own cart.
        openRoom(event);
        Set<String> carts = new HashSet<>();
        for (String address : List.of("192.0.2.11", "192.0.2.12")) {
            String ticket = client(address).post(EVENT + "/queue", event).then().statusCode(201).extract()
                    .path("ticket");
            carts.add(client("192.0.2.10").header("Admission-Token", WaitingRoomTest.admissionToken(event, ticket))
                    .header("Idempotency-Key", "one-key-for-all").post(EVENT + "/carts", event).then()
                    .statusCode(201).header("Idempotent-Replayed", nullValue()).extract().path("id"));
        }
        assertThat(carts).as("carts of two admissions sent with one key").hasSize(2);
    }

    @Test
    void bestAvailableHoldsNoMoreThanOneRequestMay() {
        String event = newEvent("best-limit");
        long item = admin().body(Map.of("name", "Seat", "price", "1", "requires_seat", true))
                .post(EVENT + "/items", event).then().statusCode(201).extract().jsonPath().getLong("id");
        storefront().body(Map.of("item_id", item, "quantity", 51))
                .post(EVENT + "/carts/{cart}/best_available", event, newCart(event)).then().statusCode(413)
                .body("code", equalTo("too_many_positions"));
    }
}

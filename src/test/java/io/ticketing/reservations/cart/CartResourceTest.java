package io.ticketing.reservations.cart;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Sql;

@QuarkusTest
class CartResourceTest {

    @Inject
    Sql sql;

    private static int available(String event, long quota) {
        return admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().statusCode(200).extract().path("available_number");
    }

    @Test
    void shouldCreateAnEmptyCartWithAnUnguessableId() {
        String event = newEvent("cart-new");
        String id = storefront().post("/api/v1/events/{event}/carts", event)
                .then().statusCode(201).body("positions", hasSize(0)).extract().path("id");
        assertThat(id).hasSizeGreaterThanOrEqualTo(22);
        assertThat(newCart(event)).isNotEqualTo(id);
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, id).then().statusCode(200)
                .body("id", equalTo(id));
    }

    @Test
    void shouldHoldEachTicketWithItsOwnDeadlineAndPrice() {
        String event = newEvent("cart-add");
        long item = newItem(event, "Ticket", "12.50");
        long quota = newQuota(event, 10, List.of(item));
        String cart = newCart(event);
        Instant before = Instant.now();
        addToCart(event, cart, Map.of("item_id", item, "quantity", 3)).then().statusCode(201)
                .body("positions", hasSize(3)).body("positions[0].price", equalTo("12.50"))
                .body("total", equalTo("37.50"));
        String expires = storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart)
                .then().extract().path("positions[0].expires");
        assertThat(Instant.parse(expires)).isAfter(before.plusSeconds(1790));
        assertThat(available(event, quota)).isEqualTo(7);
    }

    @Test
    void shouldAddNothingWhenOnePositionDoesNotFit() {
        String event = newEvent("cart-atomic");
        long plenty = newItem(event, "Plenty", "1");
        long scarce = newItem(event, "Scarce", "1");
        long plentyQuota = newQuota(event, 100, List.of(plenty));
        newQuota(event, 1, List.of(scarce));
        String cart = newCart(event);
        storefront().body(Map.of("positions", List.of(Map.of("item_id", plenty, "quantity", 5),
                Map.of("item_id", scarce, "quantity", 2))))
                .post("/api/v1/events/{event}/carts/{cart}/positions", event, cart)
                .then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("quota_exhausted")).body("item_id", equalTo((int) scarce));
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart).then().body("positions", hasSize(0));
        assertThat(available(event, plentyQuota)).isEqualTo(100);
    }

    @Test
    void shouldSellAnItemInSeveralQuotasOnlyWhileEveryOneHasRoom() {
        String event = newEvent("cart-two-quotas");
        long item = newItem(event, "Combo", "1");
        long other = newItem(event, "Other", "1");
        newQuota(event, 10, List.of(item));
        long small = newQuota(event, 2, List.of(item, other));
        cartWith(event, Map.of("item_id", other));
        cartWith(event, Map.of("item_id", item));
        addToCart(event, newCart(event), Map.of("item_id", item)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted")).body("quota_id", equalTo((int) small));
    }

    @Test
    void shouldSellWithoutLimitInUnlimitedQuotasButNeverWithoutAQuota() {
        String event = newEvent("cart-unlimited");
        long free = newItem(event, "Free", "0");
        long orphan = newItem(event, "Orphan", "5");
        newQuota(event, null, List.of(free));
        addToCart(event, newCart(event), Map.of("item_id", free, "quantity", 40)).then().statusCode(201);
        addToCart(event, newCart(event), Map.of("item_id", orphan)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
    }

    @Test
    void shouldNeedASeatExactlyForSeatedItems() {
        String event = newEvent("cart-seats");
        long seated = newSeatedItem(event, "Seat", "30");
        long standing = newItem(event, "Standing", "10");
        newQuota(event, 10, List.of(seated, standing));
        newSeats(event, seated, "R1", 2);
        String cart = newCart(event);
        addToCart(event, cart, Map.of("item_id", seated)).then().statusCode(409).body("code", equalTo("seat_required"));
        addToCart(event, cart, Map.of("item_id", standing, "seat_guid", "R1-1")).then().statusCode(409)
                .body("code", equalTo("seat_not_allowed"));
        addToCart(event, cart, Map.of("item_id", seated, "seat_guid", "R1-1", "quantity", 2)).then().statusCode(400)
                .body("errors[0].field", equalTo("positions[0].quantity"));
        addToCart(event, cart, Map.of("item_id", seated, "seat_guid", "nowhere")).then().statusCode(404)
                .body("code", equalTo("not_found"));
        addToCart(event, cart, Map.of("item_id", seated, "seat_guid", "R1-1")).then().statusCode(201)
                .body("positions[0].seat_guid", equalTo("R1-1"));
        addToCart(event, newCart(event), Map.of("item_id", seated, "seat_guid", "R1-1")).then().statusCode(409)
                .body("code", equalTo("seat_unavailable"));
    }

    @Test
    void shouldFreeCapacityWhenAPositionOrTheCartIsRemoved() {
        String event = newEvent("cart-remove");
        long item = newItem(event, "Ticket", "1");
        long quota = newQuota(event, 5, List.of(item));
        String cart = newCart(event);
        int position = addToCart(event, cart, Map.of("item_id", item, "quantity", 2)).then().statusCode(201)
                .extract().path("positions[0].id");
        storefront().delete("/api/v1/events/{event}/carts/{cart}/positions/{position}", event, cart, position)
                .then().statusCode(204);
        assertThat(available(event, quota)).isEqualTo(4);
        storefront().delete("/api/v1/events/{event}/carts/{cart}/positions/{position}", event, cart, position)
                .then().statusCode(404).body("code", equalTo("not_found"));
        storefront().delete("/api/v1/events/{event}/carts/{cart}", event, cart).then().statusCode(204);
        assertThat(available(event, quota)).isEqualTo(5);
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart).then().statusCode(404);
    }

    @Test
    void shouldStopCountingAnExpiredHoldWithNoJob() {
        String event = newEvent("cart-expired");
        long item = newItem(event, "Ticket", "1");
        long quota = newQuota(event, 1, List.of(item));
        String cart = cartWith(event, Map.of("item_id", item));
        assertThat(available(event, quota)).isZero();
        sql.expireCart(cart);
        assertThat(available(event, quota)).isEqualTo(1);
        cartWith(event, Map.of("item_id", item));
    }

    @Test
    void shouldExtendValidHoldsAndReviveExpiredOnesOnlyIfStillFree() {
        String event = newEvent("cart-extend");
        long item = newItem(event, "Ticket", "1");
        newQuota(event, 1, List.of(item));
        String cart = cartWith(event, Map.of("item_id", item));
        storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, cart).then().statusCode(200)
                .body("positions", hasSize(1));

        sql.expireCart(cart);
        storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, cart).then().statusCode(200);
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1 AND expires > now()", cart))
                .isEqualTo(1);

        sql.expireCart(cart);
        cartWith(event, Map.of("item_id", item));
        storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, cart).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1 AND expires > now()", cart))
                .isZero();
    }

    @Test
    void shouldNeverExtendAHoldPastItsCreationPlusTheMaximumHold() {
        String event = newEvent("cart-hold-limit");
        long item = newItem(event, "Ticket", "1");
        newQuota(event, 5, List.of(item));
        String cart = cartWith(event, Map.of("item_id", item));
        sql.update("UPDATE cart_positions SET created_at = now() - interval '80 minutes' WHERE cart_id = ?1", cart);
        storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, cart).then().statusCode(200);

        sql.update("UPDATE cart_positions SET created_at = now() - interval '100 minutes' WHERE cart_id = ?1", cart);
        String expiresBefore = storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart)
                .then().extract().path("positions[0].expires");
        storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, cart).then().statusCode(409)
                .body("code", equalTo("hold_limit")).body("holdable_until", startsWith(""));
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart).then()
                .body("positions[0].expires", equalTo(expiresBefore));

        sql.expireCart(cart);
        storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, cart).then().statusCode(409)
                .body("code", equalTo("hold_limit"));
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1 AND expires > now()", cart))
                .isZero();
    }

    @Test
    void shouldRefuseMorePositionsThanTheConfiguredMaximum() {
        String event = newEvent("cart-max");
        long item = newItem(event, "Ticket", "1");
        long quota = newQuota(event, 1000, List.of(item));
        addToCart(event, newCart(event), Map.of("item_id", item, "quantity", 51)).then().statusCode(413)
                .body("code", equalTo("too_many_positions"));
        assertThat(available(event, quota)).isEqualTo(1000);
    }

    @Test
    void shouldRefuseMalformedPositionsWithFieldErrors() {
        String event = newEvent("cart-invalid");
        String cart = newCart(event);
        addToCart(event, cart, Map.of("item_id", 1, "quantity", 0)).then().statusCode(400)
                .body("code", equalTo("validation_failed"))
                .body("errors[0].field", startsWith("positions[0].quantity"));
        addToCart(event, cart, Map.of("quantity", 1)).then().statusCode(400)
                .body("errors[0].field", startsWith("positions[0].item_id"));
        addToCart(event, cart, Map.of("item_id", "many")).then().statusCode(400);
        addToCart(event, "no-such-cart-0000000000", Map.of("item_id", 1)).then().statusCode(404);
    }

    @Test
    void shouldLetAStorefrontTokenHoldButNotAdminister() {
        String event = newEvent("cart-scopes");
        given().post("/api/v1/events/{event}/carts", event).then().statusCode(401).body("code",
                equalTo("unauthorized"));
        storefront().body(Map.of("name", "X", "price", "1")).post("/api/v1/events/{event}/items", event)
                .then().statusCode(403).body("code", equalTo("forbidden"));
        storefront().get("/api/v1/events/{event}/availability", event).then().statusCode(200);
        admin().post("/api/v1/events/{event}/carts", event).then().statusCode(201);
    }
}

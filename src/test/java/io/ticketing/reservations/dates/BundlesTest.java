package io.ticketing.reservations.dates;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.availableNumber;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newBundle;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newQuotaOn;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.ticketing.reservations.support.Sql;

/** Contract section 10: an item that bundles others brings their positions, in the same claim, and takes them away. */
@QuarkusTest
class BundlesTest {

    private static final String CART = "/api/v1/events/{event}/carts/{cart}";

    @Inject
    Sql sql;

    @Test
    void aBundlePositionBringsItsBundledPositionsAllOrNothingAndTakesThemAway() {
        String event = newEvent("bundle");
        long drink = newItem(event, "Drink", "4.00");
        long ticket = newItem(event, "Ticket", "20.00");
        long group = newItem(event, Map.of("name", "Group of four", "price", "70.00", "bundle",
                List.of(Map.of("item_id", ticket, "count", 4), Map.of("item_id", drink, "count", 1))));
        assertThat(admin().get("/api/v1/events/{event}/items/{item}", event, group).then().statusCode(200)
                .extract().jsonPath().getList("bundle.item_id", Long.class)).containsExactlyInAnyOrder(ticket, drink);
        newQuota(event, 10, List.of(group));
        long tickets = newQuota(event, 6, List.of(ticket));
        newQuota(event, 100, List.of(drink));

        String cart = newCart(event);
        JsonPath held = addToCart(event, cart, Map.of("item_id", group)).then().statusCode(201).extract().jsonPath();
        assertThat(held.getList("positions", Map.class)).hasSize(6);
        long bundle = held.getLong("positions.find { it.item_id == " + group + " }.id");
        assertThat(held.getList("positions.findAll { it.bundled_in == " + bundle + " }.item_id", Long.class))
                .containsExactlyInAnyOrder(ticket, ticket, ticket, ticket, drink);
        assertThat(held.getString("total")).isEqualTo("70.00");
        assertThat(availableNumber(event, tickets)).isEqualTo(2);

        // Four tickets more do not fit in what is left: nothing of the second bundle is held.
        addToCart(event, newCart(event), Map.of("item_id", group)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted")).body("quota_id", equalTo((int) tickets));
        assertThat(availableNumber(event, tickets)).isEqualTo(2);

        long brought = held.getLong("positions.find { it.item_id == " + drink + " }.id");
        storefront().delete(CART + "/positions/{position}", event, cart, brought).then().statusCode(409)
                .body("code", equalTo("position_bundled"));
        storefront().delete(CART + "/positions/{position}", event, cart, bundle).then().statusCode(204);
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1", cart)).isZero();
        assertThat(availableNumber(event, tickets)).isEqualTo(6);
    }

    @Test
    void anOrderKeepsWhatABundleBroughtAndCancelingTheBundleCancelsIt() {
        String event = newEvent("bundle-order");
        long drink = newItem(event, "Drink", "4.00");
        long ticket = newItem(event, "Ticket", "20.00");
        long combo = newBundle(event, "Ticket and drink", "22.00", drink, 1);
        newQuota(event, 10, List.of(combo, ticket));
        long drinks = newQuota(event, 3, List.of(drink));
        String cart = newCart(event);
        addToCart(event, cart, Map.of("item_id", combo)).then().statusCode(201);
        addToCart(event, cart, Map.of("item_id", ticket)).then().statusCode(201);
        JsonPath order = checkout(event, cart).then().statusCode(201).extract().jsonPath();
        String code = order.getString("code");
        long bundle = order.getLong("positions.find { it.item_id == " + combo + " }.id");
        long brought = order.getLong("positions.find { it.item_id == " + drink + " }.id");
        assertThat(order.getLong("positions.find { it.item_id == " + drink + " }.bundled_in")).isEqualTo(bundle);
        assertThat(availableNumber(event, drinks)).isEqualTo(2);

        String etag = admin().get("/api/v1/events/{event}/orders/{code}", event, code).header("ETag");
        admin().header("If-Match", etag)
                .body(Map.of("operations", List.of(Map.of("op", "cancel_position", "position_id", brought))))
                .post("/api/v1/events/{event}/orders/{code}/changes", event, code).then().statusCode(409)
                .body("code", equalTo("position_bundled"));
        admin().header("If-Match", etag)
                .body(Map.of("operations", List.of(Map.of("op", "cancel_position", "position_id", bundle))))
                .post("/api/v1/events/{event}/orders/{code}/changes", event, code).then().statusCode(200)
                .body("positions.size()", equalTo(1)).body("total", equalTo("20.00"));
        assertThat(availableNumber(event, drinks)).isEqualTo(3);
    }

    @Test
    void bundlesNeedNoSeatDoNotNestFollowTheirBundleOnADateAndLeaveWithIt() {
        String event = newEvent("bundle-rules");
        long seated = newSeatedItem(event, "Seat", "10");
        long drink = newItem(event, "Drink", "4.00");
        admin().body(Map.of("name", "Bad", "price", "1", "bundle", List.of(Map.of("item_id", seated, "count", 1))))
                .post("/api/v1/events/{event}/items", event).then().statusCode(400)
                .body("code", equalTo("validation_failed"));
        long combo = newBundle(event, "Combo", "9", drink, 2);
        admin().body(Map.of("name", "Nested", "price", "1", "bundle", List.of(Map.of("item_id", combo, "count", 1))))
                .post("/api/v1/events/{event}/items", event).then().statusCode(400);
        admin().delete("/api/v1/events/{event}/items/{item}", event, drink).then().statusCode(409)
                .body("code", equalTo("in_use"));

        long friday = newDate(event, 4);
        newQuotaOn(event, friday, 5, List.of(combo));
        long fridayDrinks = newQuotaOn(event, friday, 2, List.of(drink));
        String cart = newCart(event);
        JsonPath held = addToCart(event, cart, Map.of("item_id", combo, "date_id", friday)).then()
                .statusCode(201).extract().jsonPath();
        assertThat(held.getList("positions.date_id", Long.class)).containsOnly(friday);
        assertThat(availableNumber(event, fridayDrinks)).isZero();

        // Deleting the bundle's item takes its expired holds, and what they brought, though that is another item's.
        admin().delete("/api/v1/events/{event}/items/{item}", event, combo).then().statusCode(409)
                .body("code", equalTo("in_use"));
        sql.expireCart(cart);
        admin().delete("/api/v1/events/{event}/items/{item}", event, combo).then().statusCode(204);
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1", cart)).isZero();
    }
}

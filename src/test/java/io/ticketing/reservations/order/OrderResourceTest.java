package io.ticketing.reservations.order;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Sql;

@QuarkusTest
class OrderResourceTest {

    @Inject
    Sql sql;

    @Inject
    OrderService orders;

    private static Map<String, Object> availability(String event, long quota) {
        return admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().statusCode(200).extract().as(Map.class);
    }

    private static int redeemed(String event, String code) {
        return admin().get("/api/v1/events/{event}/vouchers/{code}", event, code).then().statusCode(200)
                .extract().path("redeemed");
    }

    @Test
    void shouldTurnACartIntoAPendingOrderAndRedeemItsVoucher() {
        String event = newEvent("checkout");
        long item = newItem(event, "Ticket", "20.00");
        long quota = newQuota(event, 10, List.of(item));
        newVoucher(event, Map.of("code", "FRIENDS", "max_usages", 5));
        String cart = newCart(event);
        addToCart(event, cart, Map.of("item_id", item, "quantity", 2, "voucher_code", "friends")).then()
                .statusCode(201);
        Instant before = Instant.now();
        String code = checkout(event, cart).then().statusCode(201).header("Location", containsString("/orders/"))
                .body("status", equalTo("pending")).body("positions", hasSize(2)).body("total", equalTo("40.00"))
                .body("currency", equalTo("EUR")).body("email", equalTo("buyer@example.com"))
                .extract().path("code");
        assertThat(code).hasSizeGreaterThanOrEqualTo(16);
        String expires = storefront().get("/api/v1/events/{event}/orders/{code}", event, code).then().statusCode(200)
                .body("positions[0].voucher_code", equalTo("FRIENDS")).extract().path("expires");
        assertThat(Instant.parse(expires)).isAfter(before.plusSeconds(1_209_000));
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart).then().statusCode(404);
        assertThat(availability(event, quota)).containsEntry("pending_orders", 2).containsEntry("cart_positions", 0)
                .containsEntry("available_number", 8);
        assertThat(redeemed(event, "FRIENDS")).isEqualTo(2);
    }

    @Test
    void shouldRefuseToOrderAnEmptyOrUnknownCartOrWithoutAnEmail() {
        String event = newEvent("checkout-bad");
        checkout(event, newCart(event)).then().statusCode(409).body("code", equalTo("cart_empty"));
        checkout(event, "no-such-cart-000000000000").then().statusCode(404).body("code", equalTo("not_found"));
        storefront().body(Map.of("cart_id", newCart(event), "email", "not an email"))
                .post("/api/v1/events/{event}/orders", event)
                .then().statusCode(400).body("errors[0].field", equalTo("email"));
        storefront().get("/api/v1/events/{event}/orders/{code}", event, "nope").then().statusCode(404);
    }

    @Test
    void shouldRecheckExpiredHoldsAtCheckoutAndChangeNothingWhenTheyAreGone() {
        String event = newEvent("checkout-expired");
        long item = newItem(event, "Ticket", "1");
        long quota = newQuota(event, 1, List.of(item));
        String late = cartWith(event, Map.of("item_id", item));
        sql.expireCart(late);
        String quick = cartWith(event, Map.of("item_id", item));
        checkout(event, late).then().statusCode(409).body("code", equalTo("quota_exhausted"));
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, late).then().statusCode(200)
                .body("positions", hasSize(1));
        storefront().delete("/api/v1/events/{event}/carts/{cart}", event, quick).then().statusCode(204);
        checkout(event, late).then().statusCode(201);
        assertThat(availability(event, quota)).containsEntry("pending_orders", 1);
    }

    @Test
    void shouldMarkPaidOnceAndCancelByGivingEverythingBack() {
        String event = newEvent("pay-cancel");
        long item = newItem(event, "Ticket", "1");
        long quota = newQuota(event, 3, List.of(item));
        newVoucher(event, Map.of("code", "ONCE"));
        String code = checkout(event, cartWith(event, Map.of("item_id", item, "voucher_code", "ONCE")))
                .then().extract().path("code");
        admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, code).then().statusCode(200)
                .body("status", equalTo("paid"));
        admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, code).then().statusCode(409)
                .body("code", equalTo("order_state"));
        assertThat(availability(event, quota)).containsEntry("paid_orders", 1).containsEntry("available_number", 2);
        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, code).then().statusCode(200)
                .body("status", equalTo("canceled"));
        assertThat(availability(event, quota)).containsEntry("paid_orders", 0).containsEntry("available_number", 3);
        assertThat(redeemed(event, "ONCE")).isZero();
        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, code).then().statusCode(409)
                .body("code", equalTo("order_state"));
        admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, code).then().statusCode(409)
                .body("code", equalTo("order_state"));
        storefront().post("/api/v1/events/{event}/orders/{code}/cancel", event, code).then().statusCode(403);
    }

    @Test
    void shouldKeepCountingAPendingOrderPastItsDeadlineUntilItIsExpired() {
        String event = newEvent("pending-late");
        long item = newItem(event, "Ticket", "1");
        long quota = newQuota(event, 1, List.of(item));
        String code = checkout(event, cartWith(event, Map.of("item_id", item))).then().extract().path("code");
        sql.passDeadline(code);
        assertThat(availability(event, quota)).containsEntry("available_number", 0);
        assertThat(orders.expireIfDue(sql.orderId(code))).isTrue();
        assertThat(orders.expireIfDue(sql.orderId(code))).isFalse();
        assertThat(availability(event, quota)).containsEntry("available_number", 1);
        storefront().get("/api/v1/events/{event}/orders/{code}", event, code).then().body("status", equalTo("expired"));
    }

    @Test
    void shouldPayAnExpiredOrderOnlyWhileWhatItHeldIsStillFree() {
        String event = newEvent("pay-late");
        long item = newItem(event, "Ticket", "1");
        newQuota(event, 1, List.of(item));
        newVoucher(event, Map.of("code", "LATE"));
        String first = checkout(event, cartWith(event, Map.of("item_id", item, "voucher_code", "LATE")))
                .then().extract().path("code");
        sql.passDeadline(first);
        orders.expireIfDue(sql.orderId(first));
        assertThat(redeemed(event, "LATE")).isZero();
        admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, first).then().statusCode(200)
                .body("status", equalTo("paid"));
        assertThat(redeemed(event, "LATE")).isEqualTo(1);

        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, first).then().statusCode(200);
        String second = checkout(event, cartWith(event, Map.of("item_id", item))).then().extract().path("code");
        sql.passDeadline(second);
        orders.expireIfDue(sql.orderId(second));
        checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201);
        admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, second).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        storefront().get("/api/v1/events/{event}/orders/{code}", event, second).then().body("status",
                equalTo("expired"));
    }
}

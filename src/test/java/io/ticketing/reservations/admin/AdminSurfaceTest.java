package io.ticketing.reservations.admin;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

@QuarkusTest
class AdminSurfaceTest {

    private static final String EVENT = "/api/v1/events/{event}";

    @Test
    void shouldPageThroughEveryListWithOpaqueCursors() {
        String event = newEvent("pages");
        List<Long> items = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            items.add(newItem(event, "Item " + i, "1.00"));
        }
        List<Object> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var request = admin().queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get(EVENT + "/items", event).then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("data.id", Long.class));
            cursor = page.getString("next_cursor");
            pages++;
        } while (cursor != null);
        assertThat(seen).containsExactlyElementsOf(items);
        assertThat(pages).isEqualTo(3);

        for (String limit : List.of("0", "501", "x", "1.5")) {
            admin().queryParam("limit", limit).get(EVENT + "/items", event).then().statusCode(400)
                    .body("errors[0].field", equalTo("limit"));
        }
        admin().queryParam("cursor", "not-a-cursor").get(EVENT + "/quotas", event).then().statusCode(400)
                .body("errors[0].field", equalTo("cursor"));
        admin().queryParam("limit", 500).get("/api/v1/events").then().statusCode(200).body("data", notNullValue());
        admin().get(EVENT + "/vouchers", event).then().statusCode(200).body("data", hasSize(0))
                .body("next_cursor", nullValue());
    }

    @Test
    void shouldEditAnItemOnlyWithItsCurrentETag() {
        String event = newEvent("edit-item");
        long item = newItem(event, "Early bird", "10.00");
        String etag = admin().get(EVENT + "/items/{item}", event, item).then().statusCode(200)
                .extract().header("ETag");
        admin().body(Map.of("price", "12.50")).patch(EVENT + "/items/{item}", event, item).then().statusCode(428)
                .body("code", equalTo("precondition_required"));
        admin().header("If-Match", etag).body(Map.of("price", "12.50", "name", "Regular", "active", false))
                .patch(EVENT + "/items/{item}", event, item).then().statusCode(200).body("price", equalTo("12.50"))
                .body("name", equalTo("Regular")).body("active", equalTo(false));
        admin().header("If-Match", etag).body(Map.of("price", "1.00")).patch(EVENT + "/items/{item}", event, item)
                .then().statusCode(412).body("code", equalTo("version_conflict"));
        admin().get(EVENT + "/items/{item}", event, item).then().body("price", equalTo("12.50"));
    }

    @Test
    void shouldRefuseToBlockAHeldSeatAndBlockAFreeOne() {
        String event = newEvent("block-seat");
        long item = newSeatedItem(event, "Seat", "30.00");
        newQuota(event, 10, List.of(item));
        newSeats(event, item, "R1", 2);
        cartWith(event, Map.of("item_id", item, "seat_guid", "R1-1"));

        String held = admin().get(EVENT + "/seats/{guid}", event, "R1-1").then().statusCode(200)
                .body("available", equalTo(false)).extract().header("ETag");
        admin().header("If-Match", held).body(Map.of("blocked", true)).patch(EVENT + "/seats/{guid}", event, "R1-1")
                .then().statusCode(409).body("code", equalTo("seat_unavailable"));

        String free = admin().get(EVENT + "/seats/{guid}", event, "R1-2").then().extract().header("ETag");
        admin().header("If-Match", free).body(Map.of("blocked", true, "name", "Row 1, seat 2"))
                .patch(EVENT + "/seats/{guid}", event, "R1-2").then().statusCode(200).body("blocked", equalTo(true))
                .body("available", equalTo(false));
        addToCart(event, newCart(event), Map.of("item_id", item, "seat_guid", "R1-2")).then().statusCode(409)
                .body("code", equalTo("seat_unavailable"));
    }

    @Test
    void shouldRaiseABlockingVoucherOnlyWithinWhatIsFree() {
        String event = newEvent("raise-voucher");
        long item = newItem(event, "Ticket", "5.00");
        long quota = newQuota(event, 5, List.of(item));
        newVoucher(event, Map.of("code", "PRESS", "max_usages", 2, "item_id", item, "block_quota", true));
        cartWith(event, Map.of("item_id", item));
        String etag = admin().get(EVENT + "/vouchers/{code}", event, "PRESS").then().extract().header("ETag");

        admin().header("If-Match", etag).body(Map.of("max_usages", 5)).patch(EVENT + "/vouchers/{code}", event, "PRESS")
                .then().statusCode(409).body("code", equalTo("quota_exhausted"));
        admin().header("If-Match", etag).body(Map.of("max_usages", 4)).patch(EVENT + "/vouchers/{code}", event, "PRESS")
                .then().statusCode(200).body("max_usages", equalTo(4));
        admin().get(EVENT + "/quotas/{quota}/availability", event, quota).then().body("available_number", equalTo(0));
    }

    @Test
    void shouldSetAndRemoveAVouchersExpiryButRefuseAnEmptyOne() {
        String event = newEvent("voucher-expiry");
        newVoucher(event, Map.of("code", "LATE"));
        String etag = admin().get(EVENT + "/vouchers/{code}", event, "LATE").then().extract().header("ETag");
        admin().header("If-Match", etag).body("{\"valid_until\":\"\"}").patch(EVENT + "/vouchers/{code}", event, "LATE")
                .then().statusCode(400).body("errors[0].field", equalTo("valid_until"));
        etag = admin().header("If-Match", etag).body(Map.of("valid_until", "2030-01-01T00:00:00Z"))
                .patch(EVENT + "/vouchers/{code}", event, "LATE").then().statusCode(200)
                .body("valid_until", equalTo("2030-01-01T00:00:00Z")).extract().header("ETag");
        Map<String, Object> noExpiry = new HashMap<>();
        noExpiry.put("valid_until", null);
        admin().header("If-Match", etag).body(noExpiry).patch(EVENT + "/vouchers/{code}", event, "LATE").then()
                .statusCode(200).body("valid_until", nullValue());
    }

    @Test
    void shouldDeleteOnlyWhatNothingWasSoldHeldOrRedeemedThrough() {
        String event = newEvent("deletes");
        long sold = newItem(event, "Sold", "5.00");
        long unused = newItem(event, "Unused", "5.00");
        long soldQuota = newQuota(event, 5, List.of(sold));
        long emptyQuota = newQuota(event, 5, List.of(unused));
        newVoucher(event, Map.of("code", "USED", "item_id", sold));
        newVoucher(event, Map.of("code", "FRESH"));
        checkout(event, cartWith(event, Map.of("item_id", sold, "voucher_code", "USED"))).then().statusCode(201);

        admin().delete(EVENT + "/vouchers/{code}", event, "USED").then().statusCode(409).body("code",
                equalTo("in_use"));
        admin().delete(EVENT + "/items/{item}", event, sold).then().statusCode(409).body("code", equalTo("in_use"));
        admin().delete(EVENT + "/quotas/{quota}", event, soldQuota).then().statusCode(409).body("code",
                equalTo("in_use"));

        admin().delete(EVENT + "/vouchers/{code}", event, "FRESH").then().statusCode(204);
        admin().delete(EVENT + "/quotas/{quota}", event, emptyQuota).then().statusCode(204);
        admin().delete(EVENT + "/items/{item}", event, unused).then().statusCode(204);
        admin().get(EVENT + "/vouchers/{code}", event, "FRESH").then().statusCode(404);
        admin().get(EVENT + "/items/{item}", event, unused).then().statusCode(404);
        admin().get(EVENT + "/items", event).then().body("data.id", contains((int) sold));
    }

    @Test
    void shouldShowTheStorefrontItsCatalogInOneRequest() {
        String event = newEvent("catalog");
        long standing = newItem(event, "Standing", "49.00");
        long seated = newSeatedItem(event, "Balcony", "89.00");
        long hidden = newItem(event, "Hidden", "1.00");
        newQuota(event, 3, List.of(standing));
        newQuota(event, 10, List.of(seated));
        newSeats(event, seated, "B", 2);
        String etag = admin().get(EVENT + "/items/{item}", event, hidden).then().extract().header("ETag");
        admin().header("If-Match", etag).body(Map.of("active", false)).patch(EVENT + "/items/{item}", event, hidden)
                .then().statusCode(200);

        storefront().get(EVENT + "/catalog", event).then().statusCode(200)
                .body("items.item_id", contains((int) standing, (int) seated))
                .body("items.name", contains("Standing", "Balcony"))
                .body("items.price", contains("49.00", "89.00"))
                .body("items.requires_seat", contains(false, true))
                .body("items.available_number", contains(3, 2));
    }

    @Test
    void shouldFindOrdersByStatusEmailAndTimeWithoutLettingCachesKeepThem() {
        String event = newEvent("orders-list");
        long item = newItem(event, "Ticket", "20.00");
        newQuota(event, 10, List.of(item));
        String first = checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201)
                .header("Cache-Control", "no-store").extract().path("code");
        String ada = storefront().body(Map.of("cart_id", cartWith(event, Map.of("item_id", item, "quantity", 2)),
                "email", "Ada@Example.com")).post(EVENT + "/orders", event).then().statusCode(201).extract()
                .path("code");
        admin().post(EVENT + "/orders/{code}/mark_paid", event, ada).then().statusCode(200);

        admin().get(EVENT + "/orders", event).then().statusCode(200).header("Cache-Control", "no-store")
                .body("data.code", contains(ada, first)).body("data[0].total", equalTo("40.00"))
                .body("data[0].positions", equalTo(2)).body("data[0].email", equalTo("Ada@Example.com"));
        admin().queryParam("email", "ada@example.COM").get(EVENT + "/orders", event).then()
                .body("data.code", contains(ada));
        admin().queryParam("status", "pending").get(EVENT + "/orders", event).then().body("data.code", contains(first));
        admin().queryParam("created_after", "2999-01-01T00:00:00Z").get(EVENT + "/orders", event).then()
                .body("data", hasSize(0));
        admin().queryParam("created_before", "2999-01-01T00:00:00Z").queryParam("limit", 1)
                .get(EVENT + "/orders", event).then().body("data.code", contains(ada))
                .body("next_cursor", notNullValue());
        admin().queryParam("status", "lost").get(EVENT + "/orders", event).then().statusCode(400)
                .body("errors[0].field", equalTo("status"));
        admin().queryParam("created_after", "yesterday").get(EVENT + "/orders", event).then().statusCode(400)
                .body("errors[0].field", equalTo("created_after"));
        storefront().get(EVENT + "/orders", event).then().statusCode(403);
    }
}

package io.ticketing.reservations.inventory;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class InventoryResourceTest {

    @Test
    void shouldCreateAndListItemsWithDecimalStringPrices() {
        String event = newEvent("items");
        admin().body(Map.of("name", "Standing", "price", "49.90", "requires_seat", false))
                .post("/api/v1/events/{event}/items", event)
                .then().statusCode(201)
                .body("price", equalTo("49.90")).body("requires_seat", equalTo(false)).body("active", equalTo(true));
        admin().get("/api/v1/events/{event}/items", event)
                .then().statusCode(200).body("data.name", contains("Standing")).body("next_cursor", nullValue());
    }

    @Test
    void shouldRefuseNegativeOrMalformedPrices() {
        String event = newEvent("prices");
        for (String price : List.of("-1", "12.345", "free", "1e3")) {
            admin().body(Map.of("name", "Bad", "price", price)).post("/api/v1/events/{event}/items", event)
                    .then().statusCode(400).body("code", equalTo("validation_failed"))
                    .body("errors[0].field", equalTo("price"));
        }
        admin().get("/api/v1/events/{event}/items", event).then().body("data.size()", equalTo(0));
    }

    @Test
    void shouldNotCreateItemsInUnknownEvents() {
        admin().body(Map.of("name", "X", "price", "1")).post("/api/v1/events/{event}/items", "no-such-event")
                .then().statusCode(404).body("code", equalTo("not_found"));
    }

    @Test
    void shouldCreateAQuotaOverItemsAndReadItWithItsVersion() {
        String event = newEvent("quotas");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 5, List.of(item));
        admin().get("/api/v1/events/{event}/quotas/{quota}", event, quota)
                .then().statusCode(200).header("ETag", "\"0\"")
                .body("size", equalTo(5)).body("items", contains((int) item));
    }

    @Test
    void shouldRefuseQuotasOverUnknownItemsOrWithNegativeSize() {
        String event = newEvent("quota-checks");
        admin().body(Map.of("name", "Q", "size", 5, "items", List.of(999_999_999)))
                .post("/api/v1/events/{event}/quotas", event)
                .then().statusCode(404).body("code", equalTo("not_found"));
        admin().body(Map.of("name", "Q", "size", -1, "items", List.of()))
                .post("/api/v1/events/{event}/quotas", event)
                .then().statusCode(400).body("errors[0].field", equalTo("size"));
    }

    @Test
    void shouldPatchAQuotaOnlyWithTheCurrentVersionAndAllowUnlimited() {
        String event = newEvent("quota-patch");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 5, List.of(item));
        admin().body(Map.of("size", 3)).patch("/api/v1/events/{event}/quotas/{quota}", event, quota)
                .then().statusCode(428).body("code", equalTo("precondition_required"));
        admin().header("If-Match", "\"0\"").body(Map.of("size", 3))
                .patch("/api/v1/events/{event}/quotas/{quota}", event, quota)
                .then().statusCode(200).header("ETag", "\"1\"").body("size", equalTo(3));
        admin().header("If-Match", "\"0\"").body(Map.of("size", 9))
                .patch("/api/v1/events/{event}/quotas/{quota}", event, quota)
                .then().statusCode(412).body("code", equalTo("version_conflict"));
        Map<String, Object> unlimited = new HashMap<>();
        unlimited.put("size", null);
        admin().header("If-Match", "\"1\"").body(unlimited)
                .patch("/api/v1/events/{event}/quotas/{quota}", event, quota)
                .then().statusCode(200).body("size", nullValue()).body("items", contains((int) item));
        admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().statusCode(200).body("available", equalTo(true)).body("available_number", nullValue());
    }
}

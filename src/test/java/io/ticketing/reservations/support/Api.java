package io.ticketing.reservations.support;

import static io.restassured.RestAssured.given;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.restassured.specification.RequestSpecification;

/** Shortcuts for tests that set up events through the public API, as a client would. */
public final class Api {

    public static final String ADMIN = "Bearer test-admin-token";
    public static final String STOREFRONT = "Bearer test-storefront-token";

    private Api() {
    }

    public static RequestSpecification admin() {
        return given().header("Authorization", ADMIN).contentType("application/json");
    }

    /** Creates an event with a unique slug and returns the slug. */
    public static String newEvent(String prefix) {
        String slug = prefix + "-" + Long.toString(System.nanoTime(), 36);
        admin().body(Map.of("slug", slug, "name", prefix, "currency", "EUR")).post("/api/v1/events")
                .then().statusCode(201);
        return slug;
    }

    public static long newItem(String event, String name, String price) {
        return admin().body(Map.of("name", name, "price", price)).post("/api/v1/events/{event}/items", event)
                .then().statusCode(201).extract().jsonPath().getLong("id");
    }

    public static long newQuota(String event, Integer size, List<Long> items) {
        Map<String, Object> body = new HashMap<>(Map.of("name", "quota", "items", items));
        body.put("size", size);
        return admin().body(body).post("/api/v1/events/{event}/quotas", event)
                .then().statusCode(201).extract().jsonPath().getLong("id");
    }
}

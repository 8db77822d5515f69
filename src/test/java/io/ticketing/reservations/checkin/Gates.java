package io.ticketing.reservations.checkin;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Api.ADMIN;
import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.order;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.restassured.response.Response;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Json;
import io.ticketing.reservations.support.PlainHttp;

/** What the check-in tests do at the doors and before: tickets sold, lists made, scans sent. */
final class Gates {

    static final String LISTS = "/api/v1/events/{event}/checkin_lists";
    static final String SCANS = LISTS + "/{list}/scans";

    private Gates() {
    }

    /** An order of {@code count} tickets of {@code item} (on {@code date} unless null), paid if {@code paid}. */
    static String sold(String event, long item, Long date, int count, boolean paid) {
        String cart = newCart(event);
        Map<String, Object> position = new HashMap<>(Map.of("item_id", item, "quantity", count));
        if (date != null) {
            position.put("date_id", date);
        }
        addToCart(event, cart, position).then().statusCode(201);
        String code = Json.text(checkout(event, cart).then().statusCode(201).extract(), "code");
        if (paid) {
            admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, code).then().statusCode(200);
        }
        return code;
    }

    /** The secrets of the order's tickets, as its buyer reads them. */
    static List<String> secrets(String event, String code) {
        return order(event, code).getList("positions.secret", String.class);
    }

    /** {@code count} paid tickets of {@code item}, by their secrets. */
    static List<String> paidTickets(String event, long item, int count) {
        return secrets(event, sold(event, item, null, count, true));
    }

    static long newList(String event, Map<String, Object> list) {
        return Json.number(admin().body(list).post(LISTS, event).then().statusCode(201).extract(), "id");
    }

    /** A scan with {@code token} (a bearer token, with its scheme). */
    static Response scan(String token, String event, long list, String secret, String type, String nonce) {
        return given().header("Authorization", token).contentType("application/json")
                .body(Map.of("secret", secret, "type", type, "nonce", nonce)).post(SCANS, event, list);
    }

    /** {@link #scan} by an admin, sent through {@link PlainHttp}: for gates that scan hundreds of tickets. */
    static Outcome scanPlainly(String event, long list, String secret, String type, String nonce) {
        return PlainHttp.post(ADMIN, "/api/v1/events/" + event + "/checkin_lists/" + list + "/scans",
                Map.of("secret", secret, "type", type, "nonce", nonce));
    }

    /** A scan's result, by an admin, or fails the test. */
    static String scanned(String event, long list, String secret, String type, String nonce) {
        return Json.text(scan(ADMIN, event, list, secret, type, nonce).then()
                .statusCode(201).extract(), "result");
    }

    static long inside(String event, long list) {
        return Json.number(admin().get(LISTS + "/{list}", event, list).then().statusCode(200).extract(), "inside");
    }
}

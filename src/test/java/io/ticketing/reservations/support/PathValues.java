package io.ticketing.reservations.support;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Real resources of the default organizer for every path parameter of the API, for the tests that walk every
 * operation of the OpenAPI document: each request then reaches what it names, and only what a test makes wrong is
 * wrong. The queue ticket is of an event of its own, whose waiting room is on, so that the walked event's carts
 * open without an admission.
 */
public final class PathValues {

    private static final Pattern PARAMETER = Pattern.compile("\\{([a-z_]+)}");
    private static final String VOUCHER = "PATHS";

    private final Map<String, String> values = new HashMap<>();
    private final String orderCode;

    private PathValues(String orderCode) {
        this.orderCode = orderCode;
    }

    /** Creates the resources, in events whose slugs start with {@code prefix}. */
    public static PathValues create(String prefix, Sql sql) {
        String event = newEvent(prefix);
        long item = newItem(event, "Ticket", "10.00");
        long seated = newSeatedItem(event, "Seat", "20.00");
        long quota = newQuota(event, 10, List.of(item));
        newQuota(event, 10, List.of(seated));
        newSeats(event, seated, "P", 1);
        newVoucher(event, Map.of("code", VOUCHER));
        String cart = cartWith(event, Map.of("item_id", item));
        String order = checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201).extract()
                .path("code");
        PathValues valid = new PathValues(order);
        valid.values.put("event", event);
        valid.values.put("item", Long.toString(item));
        valid.values.put("quota", Long.toString(quota));
        valid.values.put("guid", "P-1");
        valid.values.put("cart", cart);
        valid.values.put("position", Long.toString(
                sql.number("SELECT min(id) FROM cart_positions WHERE cart_id = ?1", cart)));
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true)))
                .patch("/api/v1/events/{event}", event).then().statusCode(200);
        long soldOut = newItem(event, "Sold out", "5.00");
        newQuota(event, 0, List.of(soldOut));
        String entry = storefront().body(Map.of("item_id", soldOut, "email", "wait@example.com"))
                .post("/api/v1/events/{event}/waiting_list", event).then().statusCode(201).extract().path("id");
        valid.values.put("entry", entry);
        // The event becomes a series only once nothing of no date is held or sold and no entry waits (contract
        // section 10): the hold runs out, the order is canceled and the entry leaves, and all stay valid names in
        // paths.
        storefront().delete("/api/v1/events/{event}/waiting_list/{entry}", event, entry).then().statusCode(204);
        sql.expireCart(cart);
        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, order).then().statusCode(200);
        valid.values.put("date", Long.toString(newDate(event, 4)));
        valid.values.put("list", admin().body(Map.of("name", "Doors")).post("/api/v1/events/{event}/checkin_lists",
                event).then().statusCode(201).extract().path("id").toString());
        valid.values.put("organizer", "default");
        valid.values.put("channel", "web");
        Api.channelToken("box-office");
        valid.values.put("allotment", Long.toString(Api.newAllotment(event, quota, "box-office", 1)));
        valid.values.put("token", admin().body(Map.of("name", prefix, "scope", "storefront"))
                .post("/api/v1/organizers/default/tokens").then().statusCode(201).extract().path("id").toString());
        String room = newEvent(prefix + "-room");
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_room", Map.of("enabled", true,
                "admission_per_minute", 1))).patch("/api/v1/events/{event}", room).then().statusCode(200);
        valid.values.put("ticket", storefront().post("/api/v1/events/{event}/queue", room).then().statusCode(201)
                .extract().path("ticket"));
        return valid;
    }

    /**
     * {@code template} with its parameters' values, those in {@code overrides} first. {@code {code}} names a voucher
     * under {@code /vouchers/}, else an order.
     */
    public String fill(String template, Map<String, String> overrides) {
        Matcher parameters = PARAMETER.matcher(template);
        StringBuilder filled = new StringBuilder();
        while (parameters.find()) {
            String name = parameters.group(1);
            String value = overrides.containsKey(name) ? overrides.get(name) : valueOf(name, template);
            assertThat(value).as("a value for {%s} of %s", name, template).isNotNull();
            parameters.appendReplacement(filled, Matcher.quoteReplacement(value));
        }
        return parameters.appendTail(filled).toString();
    }

    private String valueOf(String name, String template) {
        if (name.equals("code")) {
            return template.contains("/vouchers/") ? VOUCHER : orderCode;
        }
        return values.get(name);
    }
}

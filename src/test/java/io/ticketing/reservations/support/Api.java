package io.ticketing.reservations.support;

import static io.restassured.RestAssured.given;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;

import com.fasterxml.jackson.databind.JsonNode;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
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

    public static RequestSpecification storefront() {
        return given().header("Authorization", STOREFRONT).contentType("application/json");
    }

    /** Creates an event with a unique slug and returns the slug. */
    public static String newEvent(String prefix) {
        String slug = prefix + "-" + Long.toString(System.nanoTime(), 36);
        admin().body(Map.of("slug", slug, "name", prefix, "currency", "EUR")).post("/api/v1/events")
                .then().statusCode(201);
        return slug;
    }

    /** A new organizer (contract section 11); returns its slug. */
    public static String newOrganizer(String prefix) {
        String slug = prefix + "-" + Long.toString(System.nanoTime(), 36);
        admin().body(Map.of("slug", slug, "name", prefix)).post("/api/v1/organizers").then().statusCode(201);
        return slug;
    }

    /** A new API token of the organizer, of {@code scope}, limited to {@code events} unless null; returns its secret. */
    public static String newToken(String organizer, String scope, List<String> events) {
        Map<String, Object> body = new HashMap<>(Map.of("name", scope + " token", "scope", scope));
        body.put("events", events);
        return Json
                .text(admin().body(body).post("/api/v1/organizers/{organizer}/tokens", organizer).then().statusCode(201)
                        .extract(), "token");
    }

    public static long newItem(String event, String name, String price) {
        return Json
                .number(admin().body(Map.of("name", name, "price", price)).post("/api/v1/events/{event}/items", event)
                        .then().statusCode(201).extract(), "id");
    }

    public static long newQuota(String event, Integer size, List<Long> items) {
        return newQuotaOn(event, null, size, items);
    }

    /** A quota of one date of the event ({@code date} null: of the whole event). */
    public static long newQuotaOn(String event, Long date, Integer size, List<Long> items) {
        Map<String, Object> body = new HashMap<>(Map.of("name", "quota", "items", items));
        body.put("size", size);
        body.put("date_id", date);
        return Json.number(admin().body(body).post("/api/v1/events/{event}/quotas", event)
                .then().statusCode(201).extract(), "id");
    }

    /** What a quota has left by the admin's availability: section 1's {@code available_number}. */
    public static int availableNumber(String event, long quota) {
        return (int) Json.number(
                admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota).then().statusCode(200)
                        .extract(),
                "available_number");
    }

    /** What the storefront's availability says {@code item} can sell now: null when nothing limits it. */
    public static Integer storefrontAvailable(String event, long item) {
        JsonNode items = Json.of(storefront().get("/api/v1/events/{event}/availability", event).then()
                .statusCode(200).extract()).path("items");
        JsonNode number = StreamSupport.stream(items.spliterator(), false)
                .filter(candidate -> candidate.path("item_id").asLong() == item).findFirst().orElseThrow()
                .path("available_number");
        return number.isNull() || number.isMissingNode() ? null : number.asInt();
    }

    /** An item with the fields of {@code item} (name and price at least). */
    public static long newItem(String event, Map<String, Object> item) {
        return Json.number(
                admin().body(item).post("/api/v1/events/{event}/items", event).then().statusCode(201).extract(), "id");
    }

    /** An item whose every position brings {@code count} positions of {@code bundled} (contract section 10). */
    public static long newBundle(String event, String name, String price, long bundled, int count) {
        return newItem(event, Map.of("name", name, "price", price, "bundle",
                List.of(Map.of("item_id", bundled, "count", count))));
    }

    /** A date of the event series, on sale, starting on day {@code day} of December 2026. */
    public static long newDate(String event, int day) {
        return Json.number(
                admin().body(Map.of("name", "December " + day, "starts_at", "2026-12-%02dT19:00:00Z".formatted(day)))
                        .post("/api/v1/events/{event}/dates", event).then().statusCode(201).extract(),
                "id");
    }

    /** Seats {@code prefix-1} to {@code prefix-count} of one date, sold as {@code item}. */
    public static void newSeatsOn(String event, long date, long item, String prefix, int count) {
        List<Map<String, Object>> seats = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            seats.add(Map.of("guid", prefix + "-" + i, "name", "Seat " + i, "item_id", item, "date_id", date));
        }
        admin().body(Map.of("seats", seats)).post("/api/v1/events/{event}/seats", event).then().statusCode(201);
    }

    public static long newSeatedItem(String event, String name, String price) {
        return Json.number(admin().body(Map.of("name", name, "price", price, "requires_seat", true))
                .post("/api/v1/events/{event}/items", event).then().statusCode(201).extract(), "id");
    }

    /** Creates seats {@code prefix-1} to {@code prefix-count}, sold as {@code item}. */
    public static void newSeats(String event, long item, String prefix, int count) {
        List<Map<String, Object>> seats = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            seats.add(Map.of("guid", prefix + "-" + i, "name", "Seat " + i, "item_id", item));
        }
        admin().body(Map.of("seats", seats)).post("/api/v1/events/{event}/seats", event).then().statusCode(201);
    }

    /** Creates rows of numbered seats in {@code section}, guid {@code section-row-number}, sold as {@code item}. */
    public static void newSeatRows(String event, long item, String section, List<String> rows, int perRow) {
        newSeatRowsOn(event, null, item, section, rows, perRow);
    }

    /** {@link #newSeatRows} on one date of the event ({@code date} null: of no date). */
    public static void newSeatRowsOn(String event, Long date, long item, String section, List<String> rows,
            int perRow) {
        List<Map<String, Object>> seats = new ArrayList<>();
        for (String row : rows) {
            for (int number = 1; number <= perRow; number++) {
                Map<String, Object> seat = new HashMap<>(Map.of("guid", section + "-" + row + "-" + number, "name",
                        row + number, "item_id", item, "section", section, "row", row, "number", number));
                seat.put("date_id", date);
                seats.add(seat);
            }
        }
        admin().body(Map.of("seats", seats)).post("/api/v1/events/{event}/seats", event).then().statusCode(201);
    }

    /** Holds {@code quantity} best available seats of {@code item} in a cart. */
    public static Response bestAvailable(String event, String cart, long item, int quantity) {
        return storefront().body(Map.of("item_id", item, "quantity", quantity))
                .post("/api/v1/events/{event}/carts/{cart}/best_available", event, cart);
    }

    public static void newVoucher(String event, Map<String, Object> voucher) {
        admin().body(voucher).post("/api/v1/events/{event}/vouchers", event).then().statusCode(201);
    }

    public static String newCart(String event) {
        return Json.text(storefront().post("/api/v1/events/{event}/carts", event).then().statusCode(201).extract(),
                "id");
    }

    /**
     * An empty cart of {@code buyer}, whose per-buyer limits it counts against: opened by a storefront with the buyer
     * token the shop's server asked for (contract section 8).
     */
    public static String newCartOf(String event, String buyer) {
        return Json.text(
                storefront().body(Map.of("buyer_token", buyerToken(event, buyer))).post("/api/v1/events/{event}/carts",
                        event).then().statusCode(201).extract(),
                "id");
    }

    /** The token a shop's server asks for to vouch for {@code buyer}. */
    public static String buyerToken(String event, String buyer) {
        return Json.text(admin().body(Map.of("buyer", buyer)).post("/api/v1/events/{event}/buyer_tokens", event).then()
                .statusCode(201).extract(), "buyer_token");
    }

    /** {@code count} empty carts, one for each buyer of a race. */
    public static List<String> newCarts(String event, int count) {
        return IntStream.range(0, count).mapToObj(i -> newCart(event)).toList();
    }

    /**
     * A storefront token of the default organizer's channel {@code channel} (contract section 12), made with the
     * channel unless it exists.
     */
    public static String channelToken(String channel) {
        admin().body(Map.of("slug", channel, "name", channel)).post("/api/v1/organizers/default/channels");
        return Json.text(admin().body(Map.of("name", channel + " till", "scope", "storefront", "channel", channel))
                .post("/api/v1/organizers/default/tokens").then().statusCode(201).extract(), "token");
    }

    /** A storefront of the channel whose token this is. */
    public static RequestSpecification storefrontOf(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json");
    }

    /** An empty cart opened with {@code token}, so in its channel. */
    public static String newCartWith(String token, String event) {
        return Json.text(
                storefrontOf(token).post("/api/v1/events/{event}/carts", event).then().statusCode(201).extract(), "id");
    }

    /** An allotment of the quota for {@code channel} (contract section 12); returns its id. */
    public static long newAllotment(String event, long quota, String channel, int size) {
        return Json.number(admin().body(Map.of("channel", channel, "size", size))
                .post("/api/v1/events/{event}/quotas/{quota}/allotments", event, quota).then().statusCode(201)
                .extract(), "id");
    }

    public static Response addToCart(String event, String cart, Map<String, Object> position) {
        return storefront().body(Map.of("positions", List.of(position)))
                .post("/api/v1/events/{event}/carts/{cart}/positions", event, cart);
    }

    public static Response checkout(String event, String cart) {
        return storefront().body(Map.of("cart_id", cart, "email", "buyer@example.com"))
                .post("/api/v1/events/{event}/orders", event);
    }

    /** A cart holding one position, or fails the test. */
    public static String cartWith(String event, Map<String, Object> position) {
        String cart = newCart(event);
        addToCart(event, cart, position).then().statusCode(201);
        return cart;
    }

    /** An order change (contract section 9) on the order's {@code version} (null: without {@code If-Match}). */
    public static Response changeOrder(String event, String code, String version,
            List<Map<String, Object>> operations) {
        RequestSpecification request = admin().body(Map.of("operations", operations));
        if (version != null) {
            request = request.header("If-Match", "\"" + version + "\"");
        }
        return request.post("/api/v1/events/{event}/orders/{code}/changes", event, code);
    }

    /** An order as its buyer reads it by its code, or fails the test. */
    public static JsonPath order(String event, String code) {
        return storefront().get("/api/v1/events/{event}/orders/{code}", event, code).then().statusCode(200).extract()
                .jsonPath();
    }
}

package io.ticketing.reservations.reservation;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.buyerToken;
import static io.ticketing.reservations.support.Api.storefront;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import io.restassured.specification.RequestSpecification;
import io.ticketing.reservations.support.Json;
import io.ticketing.reservations.support.Sql;

/**
 * One event the property test sells ({@link PropertyEvents} builds it): its items, quotas, seats and voucher codes,
 * what its buyers hold (carts, orders, waiting-list entries), and the positions a buyer asks for. Everything is small
 * (quotas of one to four, vouchers of one to three uses, two or three seats) so that random steps meet at the edges.
 */
final class PropertyEvent {

    static final String PATH = "/api/v1/events/{event}";
    /** The sales channel a third of the carts open in, and the admin may limit items to (contract section 12). */
    static final String BOX_OFFICE = "box-office";
    /** Every organizer's own channel: the storefront token's. */
    static final String WEB = "web";

    /** A seated item and the guids of its seats: {@code prefix-1} to {@code prefix-count}, on each date if dated. */
    record Seated(long item, String prefix, int count) {
    }

    final String slug;
    final long id;
    /** Empty for an event without dates, until one is added ({@link ShapeSteps}). */
    final List<Long> dates;
    /** Every item; the bundle limited per buyer brings {@code bundled} ({@code bundledCount} of it). */
    final List<Long> items;
    final long bundle;
    final long bundled;
    final int bundledCount;
    /** What each bundle of the event brings, by item, and how many of it: the first bundle's and those made later. */
    final Map<Long, Map<Long, Integer>> brings = new LinkedHashMap<>();
    /** The channel each waiting-list entry joined from. */
    final Map<String, String> entryChannels = new HashMap<>();
    /** What the steps and probes read of the event. */
    final PropertyReads reads;
    /** Items sold for every date, each one position naming no date (none in an event without dates). */
    final List<Long> passes;
    final List<Seated> seated;
    final List<Long> quotas = new ArrayList<>();
    final List<String> vouchers = new ArrayList<>();
    final List<String> carts = new ArrayList<>();
    /** The cart a step last chose (see {@link #someCart}). */
    private String lastCart;
    final List<String> orders = new ArrayList<>();
    final List<String> entries = new ArrayList<>();
    /** How many buyers the carts open for, and transfers give to: {@link #fan}. */
    static final int FANS = 3;
    private final Random random;
    private final Map<String, String> buyerTokens = new HashMap<>();
    private String boxOfficeToken;
    /** An empty cart of a buyer who holds nothing, per channel: what probes add to and roll back. */
    private final Map<String, String> probeCarts = new HashMap<>();
    private final Sql sql;

    PropertyEvent(String slug, Sql sql, Random random, List<Long> dates, List<Long> items, long bundle, long bundled,
            int bundledCount, List<Long> passes, List<Seated> seated) {
        this.slug = slug;
        this.id = sql.number("SELECT id FROM events WHERE slug = ?1", slug);
        this.sql = sql;
        this.random = random;
        this.dates = new ArrayList<>(dates);
        this.items = new ArrayList<>(items);
        this.bundle = bundle;
        this.bundled = bundled;
        this.bundledCount = bundledCount;
        this.brings.put(bundle, Map.of(bundled, bundledCount));
        this.passes = passes;
        this.seated = new ArrayList<>(seated);
        this.reads = new PropertyReads(this, sql);
    }

    /** The buyer id of fan {@code number}. */
    static String fan(int number) {
        return "fan-" + number;
    }

    boolean dated() {
        return !dates.isEmpty();
    }

    /** A position of any item, with its date and seat where it needs them, half the time with a voucher. */
    Map<String, Object> position(boolean withVoucher) {
        return withVoucher && random.nextBoolean() ? positionWith(any(vouchers)) : positionOf(any(items));
    }

    /**
     * A position with {@code voucher}, mostly of what the voucher is for (its item, an item of its quota, its seat,
     * its date), so that uses run out; sometimes of any item, which the voucher may not allow.
     */
    Map<String, Object> positionWith(String voucher) {
        List<?> rows = sql.rows("""
                SELECT coalesce(v.item_id, m.item_id), s.guid, v.date_id FROM vouchers v
                  LEFT JOIN quota_items m ON m.quota_id = v.quota_id LEFT JOIN seats s ON s.id = v.seat_id
                WHERE v.event_id = ?1 AND v.code = ?2 ORDER BY 1""", id, voucher);
        Object[] scope = rows.isEmpty() || random.nextInt(4) == 0 ? new Object[3] : (Object[]) any(rows);
        Map<String, Object> position = positionOf(scope[0] == null ? any(items) : ((Number) scope[0]).longValue());
        if (scope[1] != null && position.containsKey("seat_guid")) {
            position.put("seat_guid", scope[1]);
        }
        if (scope[2] != null && position.containsKey("date_id")) {
            position.put("date_id", ((Number) scope[2]).longValue());
        }
        position.put("voucher_code", voucher);
        return position;
    }

    /** A position of {@code item}: a date unless it is a pass, a random seat of its own if it needs one. */
    Map<String, Object> positionOf(long item) {
        Map<String, Object> position = new LinkedHashMap<>(Map.of("item_id", item));
        if (dated() && !passes.contains(item)) {
            position.put("date_id", any(dates));
        }
        seatedAs(item).ifPresent(seats -> position.put("seat_guid", anySeat(seats)));
        return position;
    }

    Optional<Seated> seatedAs(long item) {
        return seated.stream().filter(seats -> seats.item() == item).findFirst();
    }

    String anySeat(Seated seats) {
        return seats.prefix() + "-" + (1 + random.nextInt(seats.count()));
    }

    /**
     * A storefront token of the default organizer's box office, made at the first cart opened there: the channel is
     * made unless an earlier run made it (409).
     */
    String boxOffice() {
        if (boxOfficeToken == null) {
            PropertyCalls.requireNoServerError("make the box office", admin()
                    .body(Map.of("slug", BOX_OFFICE, "name", "Box office")).post("/api/v1/organizers/default/channels")
                    .statusCode(), "");
            boxOfficeToken = admin().body(Map.of("name", "box office till", "scope", "storefront", "channel",
                    BOX_OFFICE)).post("/api/v1/organizers/default/tokens").then().statusCode(201).extract()
                    .path("token");
        }
        return boxOfficeToken;
    }

    /** A storefront of {@code channel}: the web shop's token or the box office's. */
    RequestSpecification shop(String channel) {
        return BOX_OFFICE.equals(channel)
                ? given().header("Authorization", "Bearer " + boxOffice()).contentType("application/json")
                : storefront();
    }

    /** The probes' cart in {@code channel}, of a buyer the shop vouches for who never holds or buys anything. */
    String probeCart(String channel) {
        return probeCarts.computeIfAbsent(channel, shop -> Json.text(shop(shop)
                .body(Map.of("buyer_token", buyerToken(slug, "probe-" + shop))).post(PATH + "/carts", slug).then()
                .statusCode(201).extract(), "id"));
    }

    /** A third of the carts open at the box office (contract section 12), whose items the admin may limit. */
    String newCart() {
        return newCart(random.nextInt(3) == 0, false);
    }

    /**
     * A cart of the box office, or of the web shop, where the item and seat of a race must sell to every racer: the
     * box office's when either is limited to channels (the only one they are limited to); a fan's for the bundle,
     * which is limited per buyer.
     */
    String newCartFor(Map<String, Object> position) {
        boolean kept = sql.number("SELECT count(*) FROM items WHERE id = ?1 AND channels IS NOT NULL",
                ((Number) position.get("item_id")).longValue()) > 0
                || position.containsKey("seat_guid") && sql.number("SELECT count(*) FROM seats WHERE event_id = ?1"
                        + " AND guid = ?2 AND channels IS NOT NULL", id, position.get("seat_guid")) > 0;
        return newCart(kept || random.nextInt(3) == 0, ((Number) position.get("item_id")).longValue() == bundle);
    }

    /**
     * Three carts in four open for one of three fans, by the buyer token the shop's server asked for (contract section
     * 8), whose limits then count: the bundle's ({@link PropertyEvents}) against their carts, orders and transfers.
     * Always a fan's {@code forAFan}: a race's racers for the bundle, each of whom must reach the locks (one without a
     * buyer is refused before them).
     */
    private String newCart(boolean atTheBoxOffice, boolean forAFan) {
        RequestSpecification opener = shop(atTheBoxOffice ? BOX_OFFICE : WEB);
        int fan = random.nextInt(forAFan ? FANS : 3 * FANS / 2);
        if (fan < FANS) {
            opener = opener.body(Map.of("buyer_token", buyerTokens.computeIfAbsent(fan(fan),
                    buyer -> buyerToken(slug, buyer))));
        }
        String cart = Json.text(opener.post(PATH + "/carts", slug).then().statusCode(201).extract(), "id");
        carts.add(cart);
        return cart;
    }

    /**
     * Half the time a voucher that live holds use, when there is one (an edit of a voucher in use is where a change
     * of what it blocks meets what it holds), else any of the event's.
     */
    String someVoucher() {
        List<?> held = sql.rows("SELECT DISTINCT v.code FROM vouchers v JOIN cart_positions c ON c.voucher_id = v.id"
                + " WHERE v.event_id = ?1 AND c.expires >= now() ORDER BY v.code", id);
        return held.isEmpty() || random.nextBoolean() ? any(vouchers) : (String) any(held);
    }

    /** Whether the voucher has {@code block_quota} on (false when it is gone). */
    boolean blocks(String voucher) {
        return sql.number("SELECT count(*) FROM vouchers WHERE event_id = ?1 AND code = ?2 AND block_quota", id,
                voucher) > 0;
    }

    /** Mostly a pending or paid order (those an admin can change), else any; null if the event has none. */
    String someOrder() {
        List<?> live = sql.rows("SELECT code FROM orders WHERE event_id = ?1 AND status IN ('pending', 'paid')"
                + " ORDER BY code", id);
        return live.isEmpty() || random.nextInt(6) == 0 ? any(orders) : (String) any(live);
    }

    /**
     * A cart that holds positions, live or expired; null if none does. Half the time the cart a step last chose, if it
     * holds any: a change to a cart, then an add to it, is where an answer built from what a replica knew would show.
     */
    String cartWithPositions() {
        List<?> held = sql.rows("SELECT k.id FROM carts k WHERE k.event_id = ?1"
                + " AND EXISTS (SELECT 1 FROM cart_positions c WHERE c.cart_id = k.id) ORDER BY k.id", id);
        if (held.contains(lastCart) && random.nextBoolean()) {
            return lastCart;
        }
        return held.isEmpty() ? null : chosen((String) held.get(random.nextInt(held.size())));
    }

    /** A cart of the event's, a new one a third of the time, else half the time the cart a step last chose. */
    String someCart() {
        if (carts.isEmpty() || random.nextInt(3) == 0) {
            return chosen(newCart());
        }
        return carts.contains(lastCart) && random.nextBoolean() ? lastCart : chosen(any(carts));
    }

    private String chosen(String cart) {
        lastCart = cart;
        return cart;
    }

    <T> T any(List<T> list) {
        return list.isEmpty() ? null : list.get(random.nextInt(list.size()));
    }

    @Override
    public String toString() {
        return dated() ? "dated" : "undated";
    }
}

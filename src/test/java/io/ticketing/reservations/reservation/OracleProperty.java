package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newBundle;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newQuotaOn;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newSeatsOn;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Oracle.QuotaUsage;
import io.ticketing.reservations.support.Sql;
import io.ticketing.reservations.waitinglist.Offers;

/**
 * The invariant itself, against every operation in any order: random sequences of adds (with and without vouchers,
 * seats, items in several quotas), removals, extensions, checkouts, payments, cancels, time passing past holds
 * and voucher deadlines, admin edits (voucher uses, {@code block_quota}, {@code valid_until}, deletes and new
 * vouchers; quota sizes from and to unlimited, items joining and leaving quotas, PATCHes naming one field; seats
 * blocked), the waiting list (joining, leaving, offer runs, buying with an offer) and order changes, and bursts of
 * concurrent buyers between them, raced with {@link RacePauses}; and on a second event, a series with dates
 * ({@link Series}): holds on one date, passes for every date, seated ones, bundles, dates going off and on sale,
 * quotas of one date resized. After every step the
 * {@link Oracle}: the service's availability equals the contract's, and no quota holds more than its size unless
 * an admin edit shrank it below, after which it never grows. {@link OraclePropertyTest} runs it with the locks,
 * where nothing is broken; {@link OraclePropertyWithoutLocksTest} without, where the oracle finds an oversell.
 *
 * <p>{@code -Dproperty.steps=N} runs a longer sequence, {@code -Dproperty.seed=S} replays one.
 */
abstract class OracleProperty {

    private static final String EVENT = "/api/v1/events/{event}";
    private static final List<String> VOUCHERS = List.of("BLOCKITEM", "BLOCKQUOTA", "PLAIN");
    private static final int SEATS = 4;

    @Inject
    Sql sql;

    @Inject
    RacePauses pauses;

    @Inject
    Offers offers;

    private Random random;
    private String event;
    private long eventId;
    private final List<Long> items = new ArrayList<>();
    private final List<Long> quotas = new ArrayList<>();
    private final List<String> carts = new ArrayList<>();
    private final List<String> orders = new ArrayList<>();
    private final List<String> entries = new ArrayList<>();
    private final Map<Long, Long> usedBefore = new HashMap<>();
    private final List<String> broken = new ArrayList<>();
    private Series series;

    /** Whether the advisory locks are on in this test's service. */
    abstract boolean locking();

    @Test
    void randomSalesAndEditsNeverPassTheOracle() {
        long seed = Long.getLong("property.seed", System.nanoTime());
        int steps = Integer.getInteger("property.steps", 60);
        random = new Random(seed);
        setUp();
        List<String> done = new ArrayList<>();
        for (int step = 0; step < steps; step++) {
            // Every run races at least once, so that the lock-off twin has its chance to oversell.
            String action = step == 0
                    ? burst()
                    : step == 1
                            ? series.burst()
                            : random.nextInt(4) == 0
                                    ? series.step()
                                    : step();
            done.add(action);
            check(done.size() + ". " + action, action.startsWith("patch quota") || action.startsWith("series: patch"));
            // The first broken promise decides either run: a failure with the locks, the twin's proof without.
            if (!broken.isEmpty()) {
                break;
            }
        }
        System.out.printf("%s: %d steps from seed %d, %d promises broken%n", getClass().getSimpleName(), done.size(),
                seed, broken.size());
        String replay = "replay with -Dproperty.seed=" + seed + " -Dproperty.steps=" + steps + "; steps: " + done;
        if (locking()) {
            assertThat(broken).as(replay).isEmpty();
        } else {
            assertThat(broken).as("without locks the oracle must find an oversell; " + replay).isNotEmpty();
        }
    }

    private void setUp() {
        event = newEvent(locking() ? "property" : "property-unlocked");
        eventId = sql.number("SELECT id FROM events WHERE slug = ?1", event);
        long inTwo = newItem(event, "In two quotas", "10");
        long shared = newItem(event, "Shared with unlimited", "20");
        long seated = newSeatedItem(event, "Seated", "30");
        newSeats(event, seated, "p", SEATS);
        items.addAll(List.of(inTwo, shared, seated));
        long wide = newQuota(event, 4, List.of(inTwo, shared));
        quotas.addAll(List.of(wide, newQuota(event, 3, List.of(inTwo)), newQuota(event, null, List.of(shared)),
                newQuota(event, 3, List.of(seated, shared))));
        newVoucher(event, Map.of("code", "BLOCKITEM", "max_usages", 2, "item_id", inTwo, "block_quota", true,
                "valid_until", "2099-01-01T00:00:00Z"));
        newVoucher(event, Map.of("code", "BLOCKQUOTA", "max_usages", 2, "quota_id", wide, "block_quota", true));
        newVoucher(event, Map.of("code", "PLAIN", "max_usages", 3));
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true)))
                .patch(EVENT, event).then().statusCode(200);
        newCart();
        series = new Series();
        check("set-up", true);
    }

    /** One random step; returns what it did and how the service answered. */
    private String step() {
        int dice = random.nextInt(100);
        if (dice < 22) {
            return add();
        } else if (dice < 34) {
            return burst();
        } else if (dice < 39) {
            return removeSomething();
        } else if (dice < 43) {
            return call("extend", storefront().post(EVENT + "/carts/{cart}/extend", event, any(carts)));
        } else if (dice < 51) {
            return checkout();
        } else if (dice < 57 && !orders.isEmpty()) {
            String change = random.nextBoolean() ? "mark_paid" : "cancel";
            return call("order " + change, admin().post(EVENT + "/orders/{code}/" + change, event, any(orders)));
        } else if (dice < 57) {
            return checkout();
        } else if (dice < 61) {
            return changeOrder();
        } else if (dice < 68) {
            return waitingList();
        } else if (dice < 71) {
            int expired = sql.update(
                    "UPDATE cart_positions SET expires = date_trunc('second', now()) - interval '1 second'"
                            + " WHERE cart_id IN (SELECT id FROM carts WHERE event_id = ?1) AND random() < 0.4",
                    eventId);
            return "time passes past " + expired + " holds";
        } else if (dice < 74) {
            String code = any(VOUCHERS);
            sql.update(
                    "UPDATE vouchers SET valid_until = now() - interval '1 second' WHERE event_id = ?1 AND code = ?2",
                    eventId, code);
            return "time passes past voucher " + code + "'s deadline";
        } else if (dice < 84) {
            return editVoucher();
        } else if (dice < 94) {
            return editQuota();
        } else {
            String guid = "p-" + (1 + random.nextInt(SEATS));
            return patch("seat " + guid, EVENT + "/seats/" + guid, Map.of("blocked", random.nextBoolean()));
        }
    }

    private String add() {
        String cart = carts.isEmpty() || random.nextInt(3) == 0 ? newCart() : any(carts);
        Map<String, Object> position = position();
        if (random.nextInt(3) > 0) {
            position.put("voucher_code", any(VOUCHERS));
        }
        return call("add " + position,
                storefront().body(Map.of("positions", List.of(position))).post(EVENT + "/carts/{cart}/positions",
                        event, cart));
    }

    /** Buyers racing for one item (and seat) that has a place left: one more of them than there are places. */
    private String burst() {
        // A race nobody can win is never decided: every racer must be able to pass the checks alone. So the
        // burst is for the first item, in random order, that has a place (and seat) left; else a plain add.
        Map<Long, QuotaUsage> usage = Oracle.quotas(sql, event);
        for (int tries = 0; tries < 2 * items.size(); tries++) {
            Map<String, Object> position = position();
            long item = (Long) position.get("item_id");
            Integer left = usage.values().stream().filter(quota -> quota.size() != null && itemIn(item, quota.id()))
                    .map(QuotaUsage::availableNumber).min(Integer::compare).orElse(null);
            boolean seatFree = !position.containsKey("seat_guid") || seatFree((String) position.get("seat_guid"));
            if ((left == null || left > 0) && itemOnSale(item) && seatFree) {
                return race(position, left);
            }
        }
        return add();
    }

    private String race(Map<String, Object> position, Integer left) {
        return race(event, eventId, this::newCart, position, left);
    }

    private String race(String event, long eventId, Supplier<String> newCart, Map<String, Object> position,
            Integer left) {
        int racers = Math.min(6, (left == null ? 2 : left + 1) + random.nextInt(2));
        List<String> racing = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            racing.add(newCart.get());
        }
        List<Crowd.Outcome> outcomes;
        try (RacePauses.Race race = pauses.race(eventId, racers)) {
            outcomes = Crowd.runRetrying(racers, i -> storefront().body(Map.of("positions", List.of(position)))
                    .post(EVENT + "/carts/{cart}/positions", event, racing.get(i)));
        } catch (Exception e) {
            throw new AssertionError("the burst for " + position + " was not decided", e);
        }
        outcomes.forEach(outcome -> requireNoServerError("burst", outcome.status(), outcome.body()));
        return racers + " racers for " + position + " (" + left + " left): "
                + outcomes.stream().map(outcome -> outcome.code() == null ? "" + outcome.status() : outcome.code())
                        .toList();
    }

    private String removeSomething() {
        String cart = any(carts);
        if (random.nextBoolean()) {
            return call("delete cart", storefront().delete(EVENT + "/carts/{cart}", event, cart));
        }
        List<Long> positions = storefront().get(EVENT + "/carts/{cart}", event, cart).jsonPath().getList("positions.id",
                Long.class);
        if (positions == null || positions.isEmpty()) {
            return "nothing to remove";
        }
        return call("remove position", storefront().delete(EVENT + "/carts/{cart}/positions/{position}", event, cart,
                any(positions)));
    }

    private String checkout() {
        Response placed = storefront().body(Map.of("cart_id", any(carts), "email", "buyer@example.com"))
                .post(EVENT + "/orders", event);
        if (placed.statusCode() == 201) {
            orders.add(placed.jsonPath().getString("code"));
        }
        return call("checkout", placed);
    }

    /** Joining (a sold-out item's list), leaving, an offer run as a replica's worker makes it, or buying with an offer. */
    private String waitingList() {
        int dice = random.nextInt(4);
        if (dice == 0 || entries.isEmpty()) {
            long item = any(items);
            int quantity = 1 + random.nextInt(2);
            int fan = random.nextInt(6);
            // Each fan joins from an address of its own, as buyers do: one address for all would soon meet the
            // per-client limit of joins.
            Response joined = storefront().header("X-Forwarded-For", "198.51.100." + (100 + fan))
                    .body(Map.of("item_id", item, "quantity", quantity, "email", "fan" + fan + "@example.com"))
                    .post(EVENT + "/waiting_list", event);
            if (joined.statusCode() == 201) {
                entries.add(joined.jsonPath().getString("id"));
            }
            return call("join the waiting list", joined);
        }
        String entry = any(entries);
        if (dice == 1) {
            return call("leave the waiting list", storefront().delete(EVENT + "/waiting_list/{entry}", event, entry));
        }
        if (dice == 2) {
            return "an offer run offers " + offers.offer(eventId) + " entries";
        }
        var offered = storefront().get(EVENT + "/waiting_list/{entry}", event, entry).jsonPath();
        if (offered.getString("offer.voucher_code") == null) {
            return "entry " + offered.getString("status") + " has no offer to buy with";
        }
        Map<String, Object> position = new LinkedHashMap<>(Map.of("item_id", offered.getLong("item_id"),
                "quantity", offered.getInt("quantity"), "voucher_code", offered.getString("offer.voucher_code")));
        if (offered.getLong("item_id") == items.get(2)) {
            position.put("quantity", 1);
            position.put("seat_guid", "p-" + (1 + random.nextInt(SEATS)));
        }
        return call("buy with an offer " + position, storefront().body(Map.of("positions", List.of(position)))
                .post(EVENT + "/carts/{cart}/positions", event, newCart()));
    }

    /** One operation on an order: another seat, another item, one more position, one less. */
    private String changeOrder() {
        if (orders.isEmpty()) {
            return checkout();
        }
        String code = any(orders);
        Response order = storefront().get(EVENT + "/orders/{code}", event, code);
        List<Long> positions = order.jsonPath().getList("positions.id", Long.class);
        long position = any(positions);
        Map<String, Object> operation = new LinkedHashMap<>();
        switch (random.nextInt(4)) {
            case 0 -> operation.putAll(Map.of("op", "change_seat", "position_id", position, "seat_guid",
                    "p-" + (1 + random.nextInt(SEATS))));
            case 1 -> operation.putAll(Map.of("op", "change_item", "position_id", position, "item_id",
                    any(items.subList(0, 2))));
            case 2 -> operation.putAll(position());
            default -> operation.putAll(Map.of("op", "cancel_position", "position_id", position));
        }
        operation.putIfAbsent("op", "add");
        return call("change order " + operation, admin().header("If-Match", order.header("ETag"))
                .body(Map.of("operations", List.of(operation))).post(EVENT + "/orders/{code}/changes", event, code));
    }

    private String editVoucher() {
        String code = any(VOUCHERS);
        int dice = random.nextInt(6);
        if (dice == 0) {
            Response deleted = admin().delete(EVENT + "/vouchers/{code}", event, code);
            if (deleted.statusCode() == 204) {
                Map<String, Object> voucher = new HashMap<>(Map.of("code", code, "max_usages", 1 + random.nextInt(3),
                        "block_quota", random.nextBoolean()));
                voucher.put(random.nextBoolean() ? "item_id" : "quota_id",
                        random.nextBoolean() ? any(items.subList(0, 2)) : any(quotas));
                Response created = admin().body(voucher).post(EVENT + "/vouchers", event);
                return call("delete voucher " + code + ", then " + voucher, created);
            }
            return call("delete voucher " + code, deleted);
        }
        Map<String, Object> changes = new HashMap<>();
        switch (dice) {
            case 1 -> changes.put("max_usages", 1 + random.nextInt(4));
            case 2, 3 -> changes.put("block_quota", random.nextBoolean());
            case 4 -> changes.put("valid_until", random.nextBoolean() ? null : "2099-01-01T00:00:00Z");
            default -> {
                // Names none of the fields that count: all of them must stay as they are.
            }
        }
        return patch("voucher " + code, EVENT + "/vouchers/" + code, changes);
    }

    private String editQuota() {
        long quota = any(quotas);
        Map<String, Object> changes = new HashMap<>();
        switch (random.nextInt(4)) {
            case 0 -> changes.put("size", random.nextInt(4) == 0 ? null : random.nextInt(6));
            case 1 -> changes.put("items",
                    items.stream().filter(item -> random.nextInt(3) > 0).toList());
            case 2 -> changes.put("name", "renamed " + random.nextInt(100));
            default -> {
                // An empty merge patch: nothing changes.
            }
        }
        return patch("quota " + quota, EVENT + "/quotas/" + quota, changes);
    }

    /**
     * The oracle after a step. A quota above its size is broken unless {@code adminEdit} put it there (a shrink may)
     * or it was above before and has not grown since.
     */
    /** The oracle on the event the step acted on: a step on one event changes nothing of the other. */
    private void check(String step, boolean adminEdit) {
        if (series == null || !step.contains("series: ")) {
            check(event, step, adminEdit);
        }
        if (series != null && (step.contains("series: ") || step.equals("set-up"))) {
            check(series.event, step, adminEdit);
        }
    }

    private void check(String event, String step, boolean adminEdit) {
        Map<Long, QuotaUsage> usage = Oracle.quotas(sql, event);
        for (QuotaUsage quota : usage.values()) {
            long before = usedBefore.getOrDefault(quota.id(), 0L);
            // A pass sold while a date is off counts in that date's quota (contract section 10), which may then
            // pass its size until the date is back on sale.
            boolean grewPastSize = quota.pastItsSize() && quota.used() > before;
            if (grewPastSize && !adminEdit) {
                broken.add(
                        "after " + step + ": quota " + quota.id() + " holds " + quota.used() + " of " + quota.size());
            }
            usedBefore.put(quota.id(), quota.used());
        }
        Oracle.brokenPromises(sql, event, usage.keySet())
                .forEach(promise -> broken.add("after " + step + ": " + promise));
        Oracle.assertServiceAgrees(sql, event);
    }

    private Map<String, Object> position() {
        long item = any(items);
        Map<String, Object> position = new LinkedHashMap<>(Map.of("item_id", item));
        if (item == items.get(2)) {
            position.put("seat_guid", "p-" + (1 + random.nextInt(SEATS)));
        }
        return position;
    }

    private boolean itemIn(long item, long quota) {
        return sql.number("SELECT count(*) FROM quota_items WHERE quota_id = ?1 AND item_id = ?2", quota, item) > 0;
    }

    /** Section 1's available seat: not blocked, held, sold, or held by a seat-bound voucher. */
    private boolean seatFree(String guid) {
        return sql.number("""
                SELECT count(*) FROM seats s WHERE s.event_id = ?1 AND s.guid = ?2 AND NOT s.blocked
                  AND NOT EXISTS (SELECT 1 FROM cart_positions c WHERE c.seat_id = s.id AND c.expires >= now())
                  AND NOT EXISTS (SELECT 1 FROM order_positions p JOIN orders o ON o.id = p.order_id
                    WHERE p.seat_id = s.id AND o.status IN ('pending', 'paid'))
                  AND NOT EXISTS (SELECT 1 FROM vouchers v WHERE v.seat_id = s.id)""", eventId, guid) > 0;
    }

    private boolean itemOnSale(long item) {
        return sql.number("SELECT count(*) FROM quota_items WHERE item_id = ?1", item) > 0;
    }

    private String newCart() {
        String cart = storefront().post(EVENT + "/carts", event).then().statusCode(201).extract().jsonPath()
                .getString("id");
        carts.add(cart);
        return cart;
    }

    private String patch(String what, String path, Map<String, Object> changes) {
        return patch(event, what, path, changes);
    }

    private static String patch(String event, String what, String path, Map<String, Object> changes) {
        Response current = admin().get(path, event);
        if (current.statusCode() == 404) {
            return call("patch " + what + " that is gone", current);
        }
        String etag = current.then().statusCode(200).extract().header("ETag");
        return call("patch " + what + " " + changes, admin().header("If-Match", etag).body(changes).patch(path, event));
    }

    private static String call(String what, Response response) {
        requireNoServerError(what, response.statusCode(), response.asString());
        String code = response.statusCode() >= 400 ? " " + response.jsonPath().getString("code") : "";
        return what + ": " + response.statusCode() + code;
    }

    private static void requireNoServerError(String what, int status, String body) {
        assertThat(status).as("%s answered %s", what, body).isLessThan(500);
    }

    private <T> T any(List<T> list) {
        return list.isEmpty() ? null : list.get(random.nextInt(list.size()));
    }

    /**
     * A series of three dates: a ticket of one date (three a date, five over the run), a pass for every date in the
     * same quotas, a seat of one date and a seated pass (two seats a date each), and a bundle of two tickets.
     */
    private final class Series {

        private final String event = newEvent(locking() ? "series" : "series-unlocked");
        private final long eventId = sql.number("SELECT id FROM events WHERE slug = ?1", event);
        private final List<Long> dates = List.of(newDate(event, 4), newDate(event, 5), newDate(event, 6));
        private final long ticket = newItem(event, "Ticket", "10");
        private final long pass = newItem(event, Map.of("name", "Pass", "price", "25", "every_date", true));
        private final long seat = newSeatedItem(event, "Seat", "30");
        private final long seatedPass = newItem(event,
                Map.of("name", "Seated pass", "price", "70", "every_date", true, "requires_seat", true));
        private final long pair = newBundle(event, "Pair", "18", ticket, 2);
        private final List<Long> quotas = new ArrayList<>();
        private final List<String> carts = new ArrayList<>();
        private final List<String> orders = new ArrayList<>();

        Series() {
            for (long date : dates) {
                quotas.add(newQuotaOn(event, date, 3, List.of(ticket, pass, seatedPass)));
                quotas.add(newQuotaOn(event, date, 2, List.of(seat, seatedPass)));
                newSeatsOn(event, date, seat, "s", 2);
                newSeatsOn(event, date, seatedPass, "p", 2);
            }
            newQuota(event, 5, List.of(ticket, pass));
            newQuota(event, 4, List.of(pair));
        }

        String step() {
            int dice = random.nextInt(100);
            String done;
            if (dice < 30) {
                done = add(position());
            } else if (dice < 45) {
                done = burst();
            } else if (dice < 55) {
                done = remove();
            } else if (dice < 65) {
                done = checkout();
            } else if (dice < 72 && !orders.isEmpty()) {
                done = call("cancel order", admin().post(EVENT + "/orders/{code}/cancel", event, any(orders)));
            } else if (dice < 80) {
                long date = any(dates);
                return "series: " + OracleProperty.patch(event, "date " + date, EVENT + "/dates/" + date,
                        Map.of("active", random.nextInt(3) > 0));
            } else if (dice < 86) {
                int expired = sql.update(
                        "UPDATE cart_positions SET expires = date_trunc('second', now()) - interval '1 second'"
                                + " WHERE cart_id IN (SELECT id FROM carts WHERE event_id = ?1) AND random() < 0.4",
                        eventId);
                done = "time passes past " + expired + " holds";
            } else if (dice < 92) {
                long quota = any(quotas);
                return "series: " + OracleProperty.patch(event, "quota " + quota, EVENT + "/quotas/" + quota,
                        Map.of("size", random.nextInt(5)));
            } else {
                done = carts.isEmpty()
                        ? "no cart to extend"
                        : call("extend", storefront().post(EVENT + "/carts/{cart}/extend", event, any(carts)));
            }
            return "series: " + done;
        }

        private Map<String, Object> position() {
            Map<String, Object> position = new LinkedHashMap<>();
            switch (random.nextInt(5)) {
                case 0 -> position.putAll(Map.of("item_id", ticket, "date_id", any(dates)));
                case 1 -> position.put("item_id", pass);
                case 2 -> position.putAll(Map.of("item_id", seat, "date_id", any(dates), "seat_guid",
                        "s-" + (1 + random.nextInt(2))));
                case 3 -> position.putAll(Map.of("item_id", seatedPass, "seat_guid", "p-" + (1 + random.nextInt(2))));
                default -> position.putAll(Map.of("item_id", pair, "date_id", any(dates)));
            }
            return position;
        }

        private String add(Map<String, Object> position) {
            String cart = carts.isEmpty() || random.nextInt(3) == 0 ? newCart() : any(carts);
            return call("add " + position, storefront().body(Map.of("positions", List.of(position)))
                    .post(EVENT + "/carts/{cart}/positions", event, cart));
        }

        /**
         * Buyers racing for a position every one of them could take alone: its date on sale (a pass's every date
         * counted), its quotas with a place left, its seat free on its dates.
         */
        String burst() {
            for (int tries = 0; tries < 10; tries++) {
                Map<String, Object> position = position();
                Integer left = left(position);
                if (left != null && left > 0) {
                    return "series: " + race(event, eventId, this::newCart, position, left);
                }
            }
            return "series: " + add(position());
        }

        /** What is left for the position by section 1 and 10, or null if it could not be held alone. */
        private Integer left(Map<String, Object> position) {
            long item = (Long) position.get("item_id");
            Long date = (Long) position.get("date_id");
            List<Long> active = sql.rows("SELECT id FROM event_dates WHERE event_id = ?1 AND active ORDER BY id",
                    eventId).stream().map(id -> ((Number) id).longValue()).toList();
            List<Long> on = date == null ? active : List.of(date);
            if (on.isEmpty() || !active.containsAll(on)) {
                return null;
            }
            String guid = (String) position.get("seat_guid");
            if (guid != null && on.stream().anyMatch(onDate -> !seatFree(guid, onDate))) {
                return null;
            }
            Map<Long, QuotaUsage> usage = Oracle.quotas(sql, event);
            List<Long> counted = new ArrayList<>(List.of(item));
            if (item == pair) {
                counted.add(ticket);
            }
            Map<Long, Long> dateOf = new HashMap<>();
            for (Object row : sql.rows("SELECT id, coalesce(date_id, 0) FROM quotas WHERE event_id = ?1", eventId)) {
                Object[] columns = (Object[]) row;
                long quotaDate = ((Number) columns[1]).longValue();
                dateOf.put(((Number) columns[0]).longValue(), quotaDate == 0 ? null : quotaDate);
            }
            Integer left = Integer.MAX_VALUE;
            for (QuotaUsage quota : usage.values()) {
                Long quotaDate = dateOf.get(quota.id());
                boolean counts = quota.size() != null && (quotaDate == null || on.contains(quotaDate))
                        && counted.stream().anyMatch(one -> itemIn(one, quota.id()));
                if (counts) {
                    left = Math.min(left, item == pair ? quota.availableNumber() / 2 : quota.availableNumber());
                }
            }
            return left;
        }

        /** Section 1's available seat on one date: a pass holds its guid on every date. */
        private boolean seatFree(String guid, long date) {
            return sql.number(
                    """
                            SELECT count(*) FROM seats s WHERE s.event_id = ?1 AND s.guid = ?2 AND s.date_id = ?3
                              AND NOT s.blocked
                              AND NOT EXISTS (SELECT 1 FROM cart_positions c JOIN carts k ON k.id = c.cart_id
                                WHERE c.expires >= now() AND (c.seat_id = s.id OR c.pass_seat_guid = s.guid AND k.event_id = ?1))
                              AND NOT EXISTS (SELECT 1 FROM order_positions p JOIN orders o ON o.id = p.order_id
                                WHERE o.status IN ('pending', 'paid')
                                  AND (p.seat_id = s.id OR p.pass_seat_guid = s.guid AND o.event_id = ?1))""",
                    eventId, guid, date) > 0;
        }

        private String remove() {
            if (carts.isEmpty()) {
                return "no cart";
            }
            String cart = any(carts);
            if (random.nextBoolean()) {
                return call("delete cart", storefront().delete(EVENT + "/carts/{cart}", event, cart));
            }
            List<Long> positions = storefront().get(EVENT + "/carts/{cart}", event, cart).jsonPath()
                    .getList("positions.id", Long.class);
            if (positions == null || positions.isEmpty()) {
                return "nothing to remove";
            }
            return call("remove position", storefront().delete(EVENT + "/carts/{cart}/positions/{position}", event,
                    cart, any(positions)));
        }

        private String checkout() {
            if (carts.isEmpty()) {
                return "no cart";
            }
            Response placed = storefront().body(Map.of("cart_id", any(carts), "email", "buyer@example.com"))
                    .post(EVENT + "/orders", event);
            if (placed.statusCode() == 201) {
                orders.add(placed.jsonPath().getString("code"));
            }
            return call("checkout", placed);
        }

        private String newCart() {
            String cart = storefront().post(EVENT + "/carts", event).then().statusCode(201).extract().jsonPath()
                    .getString("id");
            carts.add(cart);
            return cart;
        }
    }
}

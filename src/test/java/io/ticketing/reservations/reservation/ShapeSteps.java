package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.reservation.PropertyCalls.call;
import static io.ticketing.reservations.reservation.PropertyEvent.PATH;
import static io.ticketing.reservations.support.Api.admin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.restassured.response.Response;
import io.ticketing.reservations.support.Sql;

/**
 * Steps that change what an event is while it sells: a date added (to the event that sold without dates too, which
 * then becomes a series where contract section 10 lets it) with its own quota and seats, a date deleted, a bundle made
 * (a new item bringing one of the event's) in a quota of its own, an item deleted. What the other steps draw follows
 * the event's new shape.
 */
final class ShapeSteps {

    private final Random random;
    private final Sql sql;

    ShapeSteps(Random random, Sql sql) {
        this.random = random;
        this.sql = sql;
    }

    String step(PropertyEvent event) {
        return switch (random.nextInt(4)) {
            case 0 -> addDate(event);
            case 1 -> deleteDate(event);
            case 2 -> newBundle(event);
            default -> deleteItem(event);
        };
    }

    /**
     * A date, on sale; with seats of each seated item where the event has no seating plan (a plan seats every new date
     * itself), and half the time a quota of its own for the event's items that sell on a date.
     */
    private String addDate(PropertyEvent event) {
        boolean plan = event.reads.hasPlan();
        Response made = admin().body(Map.of("name", "Added", "starts_at", "2027-01-%02dT19:00:00Z".formatted(
                1 + random.nextInt(28)))).post(PATH + "/dates", event.slug);
        String what = call("add a date" + (event.dated() ? "" : " to the event that sold without dates"), made);
        if (made.statusCode() != 201) {
            return what;
        }
        long date = made.jsonPath().getLong("id");
        event.dates.add(date);
        if (!plan) {
            // The first date of an event that sold without dates took its seats (contract section 10).
            for (PropertyEvent.Seated seats : event.seated.stream().filter(seats -> sql.number(
                    "SELECT count(*) FROM seats WHERE date_id = ?1 AND item_id = ?2", date, seats.item()) == 0)
                    .toList()) {
                List<Map<String, Object>> each = new ArrayList<>();
                for (int number = 1; number <= seats.count(); number++) {
                    each.add(Map.of("guid", seats.prefix() + "-" + number, "name", "Seat " + number, "item_id",
                            seats.item(), "date_id", date));
                }
                admin().body(Map.of("seats", each)).post(PATH + "/seats", event.slug).then().statusCode(201);
            }
        }
        if (random.nextBoolean()) {
            List<Long> onADate = event.items.stream().filter(item -> !event.passes.contains(item)).toList();
            Map<String, Object> quota = new HashMap<>(Map.of("name", "added", "size", 1 + random.nextInt(3),
                    "items", onADate, "date_id", date));
            Response made2 = admin().body(quota).post(PATH + "/quotas", event.slug);
            if (made2.statusCode() == 201) {
                event.quotas.add(made2.jsonPath().getLong("id"));
            }
            what += ", " + call("a quota of it", made2);
        }
        return what;
    }

    /** Any date: refused {@code in_use} unless nothing belongs to it or names it. */
    private String deleteDate(PropertyEvent event) {
        if (!event.dated()) {
            return addDate(event);
        }
        long date = event.any(event.dates);
        Response deleted = admin().delete(PATH + "/dates/{date}", event.slug, date);
        if (deleted.statusCode() == 204) {
            event.dates.remove(Long.valueOf(date));
        }
        return call("delete date " + date, deleted);
    }

    /** A bundle of one or two of an item that needs no seat and bundles nothing, in a quota of its own. */
    private String newBundle(PropertyEvent event) {
        List<Long> bundlable = event.items.stream().filter(item -> event.seatedAs(item).isEmpty()
                && !event.brings.containsKey(item) && !event.passes.contains(item)).toList();
        if (bundlable.isEmpty()) {
            return deleteItem(event);
        }
        long brought = event.any(bundlable);
        int count = 1 + random.nextInt(2);
        Response made = admin().body(Map.of("name", "Bundle of " + brought, "price", "15", "bundle",
                List.of(Map.of("item_id", brought, "count", count)))).post(PATH + "/items", event.slug);
        String what = call("a bundle of " + count + " of item " + brought, made);
        if (made.statusCode() != 201) {
            return what;
        }
        long bundle = made.jsonPath().getLong("id");
        event.items.add(bundle);
        event.brings.put(bundle, Map.of(brought, count));
        Response quota = admin().body(Map.of("name", "bundle", "size", 1 + random.nextInt(3), "items",
                List.of(bundle))).post(PATH + "/quotas", event.slug);
        if (quota.statusCode() == 201) {
            event.quotas.add(quota.jsonPath().getLong("id"));
        }
        return what + ", " + call("its quota", quota);
    }

    /** Any item: refused {@code in_use} while anything was sold, held or seated as it. */
    private String deleteItem(PropertyEvent event) {
        long item = event.any(event.items);
        Response deleted = admin().delete(PATH + "/items/{item}", event.slug, item);
        if (deleted.statusCode() == 204) {
            event.items.remove(Long.valueOf(item));
            event.brings.remove(item);
        }
        return call("delete item " + item, deleted);
    }
}

package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.reservation.PropertyCalls.call;
import static io.ticketing.reservations.reservation.PropertyEvent.PATH;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.storefront;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * Order changes (contract section 9), all or nothing, in the shapes a box office makes them: a swap (a position
 * canceled and its like added once or twice, with its voucher), an upgrade ({@code change_item}, into and out of
 * the bundle), another seat, more positions with a voucher the order already uses, or one to three operations of
 * any kind. The shapes are where a change frees and takes the same thing in one count.
 */
final class OrderChangeSteps {

    private final Random random;

    OrderChangeSteps(Random random) {
        this.random = random;
    }

    /** Changes one of the event's orders, which must have one. */
    String change(PropertyEvent event) {
        String code = event.someOrder();
        Response order = storefront().get(PATH + "/orders/{code}", event.slug, code);
        List<Map<String, Object>> positions = order.jsonPath().getList("positions");
        // What a bundle brought changes only with its bundle: the operations name the others.
        List<Map<String, Object>> own = positions.stream().filter(position -> position.get("bundled_in") == null)
                .toList();
        // An order whose positions were all transferred away (contract section 14) can only grow again.
        List<Map<String, Object>> operations = own.isEmpty()
                ? moreWithItsVoucher(event, order.jsonPath())
                : switch (random.nextInt(6)) {
                    case 0 -> swap(event, any(own));
                    case 1 -> List.of(changeItem(event, any(own)));
                    case 2 -> List.of(changeSeat(event, any(own)));
                    case 3 -> moreWithItsVoucher(event, order.jsonPath());
                    default -> mixed(event, own);
                };
        Response changed = admin().header("If-Match", order.header("ETag")).body(Map.of("operations", operations))
                .post(PATH + "/orders/{code}/changes", event.slug, code);
        String what = call("change order " + operations, changed);
        if (changed.statusCode() == 200) {
            requireUnchangedTicketsKept(event, positions, operations, changed.jsonPath().getList("positions"), what);
        }
        return what;
    }

    /**
     * Section 3, "A ticket is one ticket": every position the operations do not name keeps its id and secret, and of
     * what a changed bundle brought, as many of each item as the bundle it became still brings.
     */
    private static void requireUnchangedTicketsKept(PropertyEvent event, List<Map<String, Object>> before,
            List<Map<String, Object>> operations, List<Map<String, Object>> after, String what) {
        Map<Long, Long> changedInto = new HashMap<>();
        List<Long> named = new ArrayList<>();
        for (Map<String, Object> operation : operations) {
            if (operation.get("position_id") != null) {
                named.add(id(operation.get("position_id")));
            }
            if ("change_item".equals(operation.get("op"))) {
                changedInto.put(id(operation.get("position_id")), id(operation.get("item_id")));
            }
        }
        Map<String, Integer> stillBrought = new HashMap<>();
        List<String> kept = after.stream().map(position -> position.get("id") + "/" + position.get("secret")).toList();
        for (Map<String, Object> position : before) {
            Object parent = position.get("bundled_in");
            String ticket = position.get("id") + "/" + position.get("secret");
            if (parent == null && !named.contains(id(position.get("id")))
                    || parent != null && !named.contains(id(parent))) {
                if (!kept.contains(ticket)) {
                    throw new AssertionError(what + ", but position " + ticket + ", which it did not change, is gone");
                }
            } else if (parent != null && changedInto.containsKey(id(parent))) {
                long item = id(position.get("item_id"));
                int brings = event.brings.getOrDefault(changedInto.get(id(parent)), Map.of()).getOrDefault(item, 0);
                if (stillBrought.merge(parent + "/" + item, 1, Integer::sum) <= brings && !kept.contains(ticket)) {
                    throw new AssertionError(what + ", but position " + ticket + ", which the changed bundle still"
                            + " brings, is gone");
                }
            }
        }
    }

    /** Cancels a position and adds its like, once or twice, with the voucher it had. */
    private List<Map<String, Object>> swap(PropertyEvent event, Map<String, Object> position) {
        List<Map<String, Object>> operations = new ArrayList<>(List.of(cancel(position)));
        int again = 1 + random.nextInt(2);
        for (int i = 0; i < again; i++) {
            operations.add(likeOf(event, position));
        }
        return operations;
    }

    /** Adds one or two positions with a voucher one of the order's positions used. */
    private List<Map<String, Object>> moreWithItsVoucher(PropertyEvent event, JsonPath order) {
        List<String> used = order.getList("positions.voucher_code", String.class).stream()
                .filter(code -> code != null).toList();
        String voucher = used.isEmpty() ? event.any(event.vouchers) : event.any(used);
        List<Map<String, Object>> operations = new ArrayList<>();
        int more = 1 + random.nextInt(2);
        for (int i = 0; i < more; i++) {
            operations.add(add(event, voucher));
        }
        return operations;
    }

    private List<Map<String, Object>> mixed(PropertyEvent event, List<Map<String, Object>> own) {
        List<Map<String, Object>> operations = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            Map<String, Object> position = any(own);
            operations.add(switch (random.nextInt(4)) {
                case 0 -> position.get("seat_guid") == null
                        ? changeItem(event, position)
                        : changeSeat(event, position);
                case 1 -> changeItem(event, position);
                case 2 -> add(event, random.nextBoolean() ? (String) position.get("voucher_code") : null);
                default -> cancel(position);
            });
        }
        return operations;
    }

    /** Another item for the position, the bundle half of the time: its date and voucher stay. */
    private Map<String, Object> changeItem(PropertyEvent event, Map<String, Object> position) {
        long item = random.nextBoolean() && !event.brings.isEmpty()
                ? event.any(List.copyOf(event.brings.keySet()))
                : event.any(event.items);
        return new LinkedHashMap<>(Map.of("op", "change_item", "position_id", id(position), "item_id", item));
    }

    /** Another seat of the position's own item, when it has one. */
    private Map<String, Object> changeSeat(PropertyEvent event, Map<String, Object> position) {
        long item = ((Number) position.get("item_id")).longValue();
        PropertyEvent.Seated seats = event.seatedAs(item).orElse(event.any(event.seated));
        return new LinkedHashMap<>(
                Map.of("op", "change_seat", "position_id", id(position), "seat_guid", event.anySeat(seats)));
    }

    private static Map<String, Object> cancel(Map<String, Object> position) {
        return new LinkedHashMap<>(Map.of("op", "cancel_position", "position_id", id(position)));
    }

    /** A new position of the item of {@code position}, on its date, with its voucher, on a seat drawn again. */
    private Map<String, Object> likeOf(PropertyEvent event, Map<String, Object> position) {
        Map<String, Object> add = event.positionOf(((Number) position.get("item_id")).longValue());
        add.put("op", "add");
        if (position.get("date_id") != null) {
            add.put("date_id", ((Number) position.get("date_id")).longValue());
        }
        if (position.get("voucher_code") != null) {
            add.put("voucher_code", position.get("voucher_code"));
        }
        return add;
    }

    private Map<String, Object> add(PropertyEvent event, String voucher) {
        Map<String, Object> add = voucher == null ? event.position(true) : event.positionWith(voucher);
        add.put("op", "add");
        return add;
    }

    private static long id(Map<String, Object> position) {
        return id(position.get("id"));
    }

    private static long id(Object number) {
        return ((Number) number).longValue();
    }

    private Map<String, Object> any(List<Map<String, Object>> positions) {
        return positions.get(random.nextInt(positions.size()));
    }
}

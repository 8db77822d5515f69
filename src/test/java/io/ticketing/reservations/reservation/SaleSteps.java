package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.reservation.PropertyCalls.call;
import static io.ticketing.reservations.reservation.PropertyEvent.PATH;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.storefront;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.ticketing.reservations.order.OrderService;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Sql;

/**
 * The buyer's flows and the clock: adds (with and without vouchers, seats, dates, bundles, two positions at once),
 * bursts of concurrent buyers raced with {@link RacePauses}, removals, extensions, checkouts, payments and cancels,
 * and time passing past holds, voucher deadlines and payment deadlines (then the expiry a replica runs).
 */
final class SaleSteps {

    private final Random random;
    private final Sql sql;
    private final RacePauses pauses;
    private final OrderService orderService;

    SaleSteps(Random random, Sql sql, RacePauses pauses, OrderService orderService) {
        this.random = random;
        this.sql = sql;
        this.pauses = pauses;
        this.orderService = orderService;
    }

    String add(PropertyEvent event) {
        return add(event, event.someCart());
    }

    private String add(PropertyEvent event, String cart) {
        List<Map<String, Object>> positions = new ArrayList<>(List.of(event.position(true)));
        if (random.nextInt(6) == 0) {
            positions.add(event.position(true));
        } else if (random.nextInt(6) == 0 && !positions.get(0).containsKey("seat_guid")) {
            positions.get(0).put("quantity", 2);
        }
        RequestSpecification request = storefront().body(Map.of("positions", positions));
        boolean keyed = random.nextBoolean();
        if (keyed) { // decided as a batch, even alone: the cart may be answered from what the replica knows of it
            request.header("Idempotency-Key", "add-" + random.nextLong());
        }
        Response added = request.post(PATH + "/carts/{cart}/positions", event.slug, cart);
        if (added.statusCode() == 201) {
            requireAnsweredAsStored(cart, added);
        }
        return call((keyed ? "keyed add " : "add ") + positions, added);
    }

    /** An add's answer lists the cart's positions as they are stored: every one, each with its deadline. */
    private void requireAnsweredAsStored(String cart, Response added) {
        List<String> answered = new ArrayList<>();
        List<Long> ids = added.jsonPath().getList("positions.id", Long.class);
        List<String> deadlines = added.jsonPath().getList("positions.expires", String.class);
        for (int i = 0; i < ids.size(); i++) {
            answered.add(ids.get(i) + " " + Instant.parse(deadlines.get(i)).getEpochSecond());
        }
        List<String> stored = sql
                .rows("SELECT id || ' ' || floor(extract(epoch FROM expires))::bigint FROM cart_positions"
                        + " WHERE cart_id = ?1 ORDER BY id", cart)
                .stream().map(String::valueOf).toList();
        if (!answered.equals(stored)) {
            throw new AssertionError("cart " + cart + " was answered with " + answered + " but holds " + stored);
        }
    }

    /**
     * Buyers racing for a position that has a place left, one more of them than there are places: for the first
     * position drawn that every racer could take alone ({@link PropertyEvent#left}); else a plain add.
     */
    String burst(PropertyEvent event) {
        for (int tries = 0; tries < 10; tries++) {
            Map<String, Object> position = event.position(false);
            Integer left = event.reads.left(position);
            if (left != null && left > 0) {
                return race(event, position, left == Integer.MAX_VALUE ? null : left);
            }
        }
        return add(event);
    }

    private String race(PropertyEvent event, Map<String, Object> position, Integer left) {
        int racers = Math.min(6, (left == null ? 2 : left + 1) + random.nextInt(2));
        List<String> racing = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            racing.add(event.newCartFor(position));
        }
        List<Crowd.Outcome> outcomes;
        try (RacePauses.Race race = pauses.race(event.id, racers)) {
            outcomes = Crowd.runRetrying(racers, i -> storefront().body(Map.of("positions", List.of(position)))
                    .post(PATH + "/carts/{cart}/positions", event.slug, racing.get(i)));
        } catch (Exception | AssertionError e) {
            throw new AssertionError("the burst of " + racers + " for " + position + " (" + left + " left) was not"
                    + " decided: " + e.getMessage(), e);
        }
        outcomes.forEach(outcome -> PropertyCalls.requireNoServerError("burst", outcome.status(), outcome.body()));
        return racers + " racers for " + position + " (" + left + " left): "
                + outcomes.stream().map(outcome -> outcome.code() == null ? "" + outcome.status() : outcome.code())
                        .toList();
    }

    /** Removes a cart that holds something, or one of its positions; adds if none does. */
    String remove(PropertyEvent event) {
        String cart = event.cartWithPositions();
        if (cart == null) {
            return add(event);
        }
        if (random.nextBoolean()) {
            event.carts.remove(cart);
            return call("delete cart", storefront().delete(PATH + "/carts/{cart}", event.slug, cart));
        }
        List<Long> positions = storefront().get(PATH + "/carts/{cart}", event.slug, cart).jsonPath()
                .getList("positions.id", Long.class);
        if (positions == null || positions.isEmpty()) {
            return "nothing to remove";
        }
        String removed = call("remove position", storefront().delete(PATH + "/carts/{cart}/positions/{position}",
                event.slug, cart, event.any(positions)));
        // A buyer swapping a ticket: the add's answer must not show the one removed.
        return random.nextBoolean() ? removed + ", then " + add(event, cart) : removed;
    }

    /** Extends a cart that holds something: live holds get a new deadline, expired ones are checked again. */
    String extend(PropertyEvent event) {
        String cart = event.cartWithPositions();
        return cart == null
                ? add(event)
                : call("extend", storefront().post(PATH + "/carts/{cart}/extend", event.slug, cart));
    }

    /** Checks out a cart that holds something, live or expired (any a tenth of the time); adds if none does. */
    String checkout(PropertyEvent event) {
        String cart = random.nextInt(10) == 0 ? event.any(event.carts) : event.cartWithPositions();
        if (cart == null) {
            return add(event);
        }
        Response placed = storefront().body(Map.of("cart_id", cart, "email", "buyer@example.com"))
                .post(PATH + "/orders", event.slug);
        if (placed.statusCode() == 201) {
            event.orders.add(placed.jsonPath().getString("code"));
            event.carts.remove(cart);
        }
        return call("checkout", placed);
    }

    /** Marks an order paid (an expired one is checked again). */
    String pay(PropertyEvent event) {
        return settle(event, "mark_paid");
    }

    /** Cancels an order: it frees what it held. */
    String cancel(PropertyEvent event) {
        return settle(event, "cancel");
    }

    private String settle(PropertyEvent event, String change) {
        if (event.orders.isEmpty()) {
            return checkout(event);
        }
        return call("order " + change, admin().post(PATH + "/orders/{code}/" + change, event.slug,
                event.someOrder()));
    }

    /**
     * Some carts' holds pass their deadline (whole carts, as buyers walk away: a bundle's hold and what it brought
     * share theirs), or a voucher's, or an order's payment deadline, which a replica's expiry may then act on.
     */
    String timePasses(PropertyEvent event) {
        int dice = random.nextInt(3);
        if (dice == 0 || event.orders.isEmpty()) {
            // The carts' rows are written too, as every change to positions writes them in the service.
            int expired = sql.update("WITH walked AS (UPDATE carts SET expires = expires"
                    + " WHERE event_id = ?1 AND random() < 0.4 RETURNING id)"
                    + " UPDATE cart_positions SET expires = date_trunc('second', now()) - interval '1 second'"
                    + " WHERE cart_id IN (SELECT id FROM walked)", event.id);
            return "time passes past " + expired + " holds";
        }
        if (dice == 1) {
            String code = event.any(event.vouchers);
            sql.update("UPDATE vouchers SET valid_until = now() - interval '1 second'"
                    + " WHERE event_id = ?1 AND code = ?2", event.id, code);
            return "time passes past voucher " + code + "'s deadline";
        }
        String order = event.any(event.orders);
        sql.passDeadline(order);
        boolean expired = random.nextBoolean() && orderService.expireIfDue(sql.orderId(order));
        return "time passes past an order's payment deadline" + (expired ? ", and it expires" : "");
    }
}

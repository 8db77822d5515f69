package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.reservation.PropertyCalls.call;
import static io.ticketing.reservations.reservation.PropertyEvent.PATH;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.storefront;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import io.restassured.response.Response;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * Transfers in the property test (contract section 14): a position of any order (a bundle's with what it brought,
 * now and then one a bundle brought, of a closed order or inside at the doors) given to a fan, to nobody, or to the
 * buyer it counts for already. A transfer consumes nothing: what each quota's orders hold is the same after it as
 * before, or the step fails.
 */
final class TransferSteps {

    private final Random random;
    private final Sql sql;

    TransferSteps(Random random, Sql sql) {
        this.random = random;
        this.sql = sql;
    }

    /** Transfers a position of one of the event's orders; returns null if the event has none with a position. */
    String transfer(PropertyEvent event) {
        String code = event.someOrder();
        if (code == null) {
            return null;
        }
        Response order = storefront().get(PATH + "/orders/{code}", event.slug, code);
        List<Map<String, Object>> positions = order.jsonPath().getList("positions");
        if (positions.isEmpty()) {
            return null;
        }
        List<Map<String, Object>> own = positions.stream().filter(p -> p.get("bundled_in") == null).toList();
        Map<String, Object> position = own.isEmpty() || random.nextInt(10) == 0
                ? event.any(positions)
                : event.any(own);
        Map<String, Object> receiver = new HashMap<>(Map.of("email", "friend@example.com"));
        int whom = random.nextInt(5);
        String buyer = whom < 3 ? PropertyEvent.fan(whom) : whom == 3 ? order.jsonPath().getString("buyer") : null;
        if (buyer != null) {
            receiver.put("buyer", buyer);
        }
        Map<Long, String> before = ordersHold(event);
        Response moved = admin().body(receiver).post(PATH + "/orders/{code}/positions/{position}/transfer",
                event.slug, code, ((Number) position.get("id")).longValue());
        Map<Long, String> after = ordersHold(event);
        if (!after.equals(before)) {
            throw new AssertionError("a transfer moved what the quotas' orders hold: " + before + " to " + after);
        }
        if (moved.statusCode() == 200) {
            event.orders.add(moved.path("code"));
        }
        return call("transfer position " + position.get("id") + " of " + code + " to " + buyer, moved);
    }

    /** What each quota's paid and pending orders hold, by quota. */
    private Map<Long, String> ordersHold(PropertyEvent event) {
        return Oracle.quotas(sql, event.slug).values().stream().collect(Collectors.toMap(Oracle.QuotaUsage::id,
                quota -> quota.paid() + " paid, " + quota.pending() + " pending"));
    }
}

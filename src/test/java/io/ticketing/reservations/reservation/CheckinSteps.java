package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.reservation.PropertyCalls.call;
import static io.ticketing.reservations.support.Api.admin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.restassured.response.Response;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Sql;

/**
 * Check-in in the property test (contract section 14): tickets of whatever the other steps sold, changed, canceled or
 * let expire, scanned in and out at the event's lists, now and then by several gates at once or with a nonce sent
 * before. Each event has two lists, one for every ticket and one that lets a ticket in once; the oracle then replays
 * each list's scans.
 */
final class CheckinSteps {

    private static final String SECRETS = """
            SELECT p.secret FROM order_positions p JOIN orders o ON o.id = p.order_id JOIN events e ON e.id = o.event_id
            WHERE e.slug = ?1 ORDER BY p.id""";

    private final Random random;
    private final Sql sql;
    private final Map<String, List<Long>> lists = new HashMap<>();
    private int bursts;

    CheckinSteps(Random random, Sql sql) {
        this.random = random;
        this.sql = sql;
    }

    String scan(PropertyEvent event) {
        List<?> secrets = sql.rows(SECRETS, event.slug);
        String secret = secrets.isEmpty() || random.nextInt(10) == 0
                ? "not-a-ticket"
                : (String) secrets.get(random.nextInt(secrets.size()));
        List<Long> doors = listsOf(event);
        long list = doors.get(random.nextInt(doors.size()));
        String type = random.nextInt(3) == 0 ? "exit" : "entry";
        String path = "/api/v1/events/{event}/checkin_lists/{list}/scans";
        if (random.nextInt(4) == 0) {
            int gates = 2 + random.nextInt(3);
            int burst = ++bursts;
            List<Crowd.Outcome> at = Crowd.run(gates, gate -> admin().body(Map.of("secret", secret, "type", type,
                    "nonce", "burst-" + burst + "-gate-" + gate)).post(path, event.slug, list));
            at.forEach(outcome -> PropertyCalls.requireNoServerError("a scan at " + gates + " gates", outcome.status(),
                    outcome.body()));
            return type + " at " + gates + " gates at once on list " + list;
        }
        // A small pool of nonces: now and then one was sent before, and answers what it answered then.
        String nonce = "n-" + random.nextInt(40);
        Response scanned = admin().body(Map.of("secret", secret, "type", type, "nonce", nonce)).post(path, event.slug,
                list);
        return call(type + " scan on list " + list + " with " + nonce + ": "
                + scanned.jsonPath().getString("result"), scanned);
    }

    private List<Long> listsOf(PropertyEvent event) {
        return lists.computeIfAbsent(event.slug, slug -> {
            List<Long> made = new ArrayList<>();
            made.add(admin().body(Map.of("name", "Every ticket", "allow_pending", true)).post(
                    "/api/v1/events/{event}/checkin_lists", slug).then().statusCode(201).extract().jsonPath()
                    .getLong("id"));
            made.add(admin().body(Map.of("name", "Once", "allow_entry_after_exit", false)).post(
                    "/api/v1/events/{event}/checkin_lists", slug).then().statusCode(201).extract().jsonPath()
                    .getLong("id"));
            return made;
        });
    }
}

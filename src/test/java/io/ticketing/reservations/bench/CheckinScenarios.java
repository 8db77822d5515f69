package io.ticketing.reservations.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The doors (contract section 14): gates scanning tickets of one check-in list. Set up untimed: 100,000 paid positions
 * written in SQL (their secrets are their column's default), the list made through the API.
 */
final class CheckinScenarios {

    private static final int ORDERS = 20_000;
    private static final int POSITIONS_PER_ORDER = 5;
    /** The tickets of {@code Ch}: few enough that gates meet on them all the time. */
    private static final int HOT_TICKETS = 10;
    /**
     * A paced gate's ({@code Cp}, {@code Chp}) time per ticket, in and out: a lane at the doors lets in a person every
     * few seconds, so four tickets a second is well above what a gate does, and 64 of them send 512 scans a second.
     * {@code -Dbench.gate-pace-ms} sets another, to see how far from the cores' limit the latency holds.
     */
    static final long GATE_PACE_MS = Long.getLong("bench.gate-pace-ms", 250);

    private CheckinScenarios() {
    }

    /**
     * (C) Each operation lets a random one of the 100,000 tickets in and out again (two scans, each with a nonce of
     * its own). (Ch) The same on 10 of them: most scans wait for another gate's on the same ticket, and most entries
     * find it inside ({@code already_inside}, a 201 like any other result). With {@code paceMillis} above 0 ({@code Cp},
     * {@code Chp}) each gate takes a ticket at most every {@code paceMillis}, as gates at the doors do, rather than one
     * right after the other: the latency of a scan at the doors, not under a load no gates make.
     */
    static Scenarios.Prepared gates(Admin admin, Connection sql, boolean hot, long paceMillis) throws Exception {
        String[] event = admin.event();
        long item = admin.item(event[0], false);
        List<String> secrets = new ArrayList<>();
        try (Statement statement = sql.createStatement()) {
            statement.execute(String.format(
                    """
                            INSERT INTO orders (event_id, code, email, status, expires)
                              SELECT %1$d, md5(random()::text), 'buyer@example.com', 'paid', now() + interval '14 days'
                              FROM generate_series(1, %3$d);
                            INSERT INTO order_positions (order_id, item_id, price)
                              SELECT o.id, %2$d, 10 FROM orders o CROSS JOIN generate_series(1, %4$d) WHERE o.event_id = %1$d""",
                    Long.parseLong(event[1]), item, ORDERS, POSITIONS_PER_ORDER));
            statement.execute("VACUUM ANALYZE orders, order_positions");
            try (ResultSet rows = statement.executeQuery("SELECT p.secret FROM order_positions p JOIN orders o"
                    + " ON o.id = p.order_id WHERE o.event_id = " + event[1] + " ORDER BY p.id"
                    + (hot ? " LIMIT " + HOT_TICKETS : ""))) {
                while (rows.next()) {
                    secrets.add(rows.getString(1));
                }
            }
        }
        long list = Admin.id(admin.post("/api/v1/events/" + event[0] + "/checkin_lists", "{\"name\":\"Doors\"}"));
        String scans = "/api/v1/events/" + event[0] + "/checkin_lists/" + list + "/scans";
        String scanner = admin.token();
        AtomicLong nonces = new AtomicLong();
        String name = (hot
                ? String.format("Ch %d hot tickets in and out", HOT_TICKETS)
                : String.format("C a ticket of %,d in and out", secrets.size()))
                + (paceMillis > 0 ? String.format(", a gate's every %d ms", paceMillis) : "");
        return new Scenarios.Prepared(name, (client, index) -> {
            if (paceMillis > 0) {
                client.paceTo(paceMillis);
            }
            String secret = secrets.get(client.random.nextInt(secrets.size()));
            String entry = "{\"secret\":\"" + secret + "\",\"type\":\"entry\",\"nonce\":\"n" + nonces.incrementAndGet()
                    + "\"}";
            String exit = "{\"secret\":\"" + secret + "\",\"type\":\"exit\",\"nonce\":\"n" + nonces.incrementAndGet()
                    + "\"}";
            return client.postAs(scanner, scans, entry).status() == 201
                    && client.postAs(scanner, scans, exit).status() == 201;
        }, 2, false);
    }
}

package io.ticketing.reservations.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/** The five scenarios of issue 5, each set up on fresh events so runs do not see each other's holds. */
final class Scenarios {

    /** Large enough never to run out during a run: the cost measured is contention, not refusals. */
    private static final int HOT_QUOTA = 10_000_000;
    private static final int SEATS = 10_000;
    private static final int CARTS_PER_BUYER = Integer.getInteger("bench.carts-per-buyer", 20);

    /** A scenario ready to run: its operation, how many HTTP requests one operation makes, whether pgbench applies. */
    /** {@code admitted}, for the waiting room: how many queue tickets were admitted so far (else null). */
    record Prepared(String name, Load.Operation operation, int requestsPerOperation, boolean hasCeiling,
            LongSupplier admitted) {

        Prepared(String name, Load.Operation operation, int requestsPerOperation, boolean hasCeiling) {
            this(name, operation, requestsPerOperation, hasCeiling, null);
        }
    }

    private Scenarios() {
    }

    /**
     * {@code 1+N} is scenario 1 on a quota that already has N live holds and N sold positions; {@code 1/N} is
     * scenario 1 in a database that also holds N quotas of other events; {@code 1~N} is scenario 1 with N entries
     * waiting on the hot quota.
     */
    static Prepared prepare(String scenario, Admin admin, List<Load.Client> buyers, Connection sql) throws Exception {
        return switch (scenario) {
            case "1" -> hotQuota(admin, buyers, sql, 0, 0, 0);
            case "1a" -> allotted(admin, buyers, sql);
            case "S" -> salesReport(admin, sql);
            case "P" -> seatingPlan(admin);
            case "2" -> purchase(admin);
            case "3" -> seats(admin, 0);
            case "4" -> spread(admin, buyers);
            case "5" -> seats(admin, 10);
            case "6" -> bestAvailable(admin);
            case "7" -> waitingRoom(admin, buyers, sql);
            case "8" -> offers(admin, sql);
            case "C" -> CheckinScenarios.gates(admin, sql, false, 0);
            case "Ch" -> CheckinScenarios.gates(admin, sql, true, 0);
            case "Cp" -> CheckinScenarios.gates(admin, sql, false, CheckinScenarios.GATE_PACE_MS);
            case "Chp" -> CheckinScenarios.gates(admin, sql, true, CheckinScenarios.GATE_PACE_MS);
            default -> {
                if (scenario.startsWith("1+")) {
                    yield hotQuota(admin, buyers, sql, Integer.parseInt(scenario.substring(2)), 0, 0);
                }
                if (scenario.startsWith("1/")) {
                    yield hotQuota(admin, buyers, sql, 0, Integer.parseInt(scenario.substring(2)), 0);
                }
                if (scenario.startsWith("1~")) {
                    yield hotQuota(admin, buyers, sql, 0, 0, Integer.parseInt(scenario.substring(2)));
                }
                if (scenario.startsWith("1@")) {
                    yield hotDate(admin, buyers, sql, Integer.parseInt(scenario.substring(2)));
                }
                if (scenario.startsWith("6@")) {
                    yield bestAvailableOnDates(admin, Integer.parseInt(scenario.substring(2)));
                }
                throw new IllegalArgumentException("no scenario " + scenario);
            }
        };
    }

    /**
     * (1) Each buyer adds one ticket to one of its carts (a cart holds a few tickets, as a real one does), after
     * {@code sold} holds and {@code sold} order positions were written on the quota, in a database with at least
     * {@code otherQuotas} quotas of other events, with {@code waiting} entries on the quota's waiting list.
     */
    private static Prepared hotQuota(Admin admin, List<Load.Client> buyers, Connection sql, int sold,
            int otherQuotas, int waiting) throws Exception {
        String[] event = admin.event();
        long item = admin.item(event[0], false);
        long quota = admin.quota(event[0], item, HOT_QUOTA);
        sellBeforehand(sql, Long.parseLong(event[1]), item, sold);
        catalogOf(sql, otherQuotas);
        waitBeforehand(sql, Long.parseLong(event[1]), quota, waiting);
        List<List<String>> carts = carts(buyers, i -> event[0]);
        String body = "{\"positions\":[{\"item_id\":" + item + "}]}";
        String name = "1 add one ticket, one hot quota";
        if (sold > 0) {
            name = String.format("1 after %,d held + %,d sold", sold, sold);
        } else if (waiting > 0) {
            name = String.format("1 with %,d waiting", waiting);
        } else if (otherQuotas > 0) {
            name = String.format("1 among %,d other quotas", otherQuotas);
        }
        return new Prepared(name, (client, index) -> {
            List<String> mine = carts.get(index);
            String cart = mine.get(client.random.nextInt(mine.size()));
            return client.accepted(client.post("/api/v1/events/" + event[0] + "/carts/" + cart + "/positions", body));
        }, 1, sold == 0 && otherQuotas == 0 && waiting == 0);
    }

    /**
     * (1a) Scenario 1 on a quota that keeps 1,000 places for a box office (contract section 12), which has sold 100
     * of them: every count of the quota also counts what the box office used. The channel and its sales are written
     * in SQL: they are set-up; the allotment is made through the API, as an organizer makes it.
     */
    private static Prepared allotted(Admin admin, List<Load.Client> buyers, Connection sql) throws Exception {
        Prepared plain = hotQuota(admin, buyers, sql, 0, 0, 0);
        long event;
        long quota;
        long item;
        String slug;
        try (Statement statement = sql.createStatement();
                ResultSet newest = statement.executeQuery("SELECT q.event_id, q.id, qi.item_id, e.slug FROM quotas q"
                        + " JOIN quota_items qi ON qi.quota_id = q.id JOIN events e ON e.id = q.event_id"
                        + " ORDER BY q.id DESC LIMIT 1")) {
            newest.next();
            event = newest.getLong(1);
            quota = newest.getLong(2);
            item = newest.getLong(3);
            slug = newest.getString(4);
        }
        try (Statement statement = sql.createStatement()) {
            statement.execute(String.format(
                    """
                            INSERT INTO channels (organizer_id, slug, name)
                              SELECT organizer_id, 'box-office', 'Box office' FROM events WHERE id = %1$d ON CONFLICT DO NOTHING;
                            INSERT INTO orders (event_id, code, email, status, expires, channel)
                              SELECT %1$d, md5(random()::text), 'desk@example.com', 'paid', now() + interval '14 days', 'box-office'
                              FROM generate_series(1, 20);
                            INSERT INTO order_positions (order_id, item_id, price)
                              SELECT o.id, %2$d, 10 FROM orders o CROSS JOIN generate_series(1, 5)
                              WHERE o.event_id = %1$d AND o.channel = 'box-office'""",
                    event, item));
            statement.execute("ANALYZE orders, order_positions, item_sales");
        }
        admin.post("/api/v1/events/" + slug + "/quotas/" + quota + "/allotments",
                "{\"channel\":\"box-office\",\"size\":1000}");
        return new Prepared("1a scenario 1, 1,000 kept for a box office", plain.operation(), 1, false);
    }

    /**
     * (S) Sales over time (contract section 12) of an event of 100,000 positions in 20,000 orders over 30 days, of
     * three items and two channels, a tenth canceled: the report by channel, item and date, per hour. Its limit is a
     * latency, so run it with {@code -Dbench.concurrency=1}: the admin's one connection takes requests in turn.
     */
    private static Prepared salesReport(Admin admin, Connection sql) throws Exception {
        String[] event = admin.event();
        long[] items = {admin.item(event[0], false), admin.item(event[0], false), admin.item(event[0], false)};
        try (Statement statement = sql.createStatement()) {
            statement.execute(String.format(
                    """
                            INSERT INTO channels (organizer_id, slug, name)
                              SELECT organizer_id, 'box-office', 'Box office' FROM events WHERE id = %1$d ON CONFLICT DO NOTHING;
                            INSERT INTO orders (event_id, code, email, status, expires, created_at, channel)
                              SELECT %1$d, md5(random()::text), 'buyer@example.com',
                                CASE WHEN g %% 10 = 0 THEN 'canceled' WHEN g %% 3 = 0 THEN 'pending' ELSE 'paid' END,
                                now() + interval '14 days', now() - (g %% 720) * interval '1 hour',
                                CASE WHEN g %% 4 = 0 THEN 'box-office' ELSE 'web' END
                              FROM generate_series(1, 20000) g;
                            INSERT INTO order_positions (order_id, item_id, price)
                              SELECT o.id, (ARRAY[%2$d, %3$d, %4$d])[1 + (o.id + n) %% 3], 10 FROM orders o
                              CROSS JOIN generate_series(1, 5) n WHERE o.event_id = %1$d""",
                    Long.parseLong(event[1]), items[0], items[1], items[2]));
            statement.execute("VACUUM ANALYZE orders, order_positions, item_sales");
        }
        String report = "/api/v1/events/" + event[0] + "/sales?group_by=channel,item,date&interval=hour";
        return new Prepared("S sales by channel, item, date per hour, 100,000 positions",
                (client, index) -> admin.get(report).status() == 200, 1, false);
    }

    /**
     * (P) A seating plan of 10,000 seats (contract section 13) imported into a new event: four zones of 25 rows of 100
     * seats, in pretix's format. An operation makes the event and its item too (two small requests). The name says
     * how large the plan's {@code GET} is, plain and with gzip.
     */
    private static Prepared seatingPlan(Admin admin) throws Exception {
        StringBuilder zones = new StringBuilder();
        for (int zone = 1; zone <= 4; zone++) {
            StringBuilder rows = new StringBuilder();
            for (int row = 1; row <= 25; row++) {
                StringBuilder seats = new StringBuilder();
                for (int seat = 1; seat <= 100; seat++) {
                    seats.append(seat > 1 ? "," : "").append(String.format(
                            "{\"seat_guid\":\"%d-%d-%d\",\"seat_number\":\"%d\",\"position\":{\"x\":%d,\"y\":0},"
                                    + "\"category\":\"Zone %d\"}",
                            zone, row, seat, seat, 25 * seat, zone));
                }
                rows.append(row > 1 ? "," : "").append(String.format(
                        "{\"row_number\":\"%d\",\"position\":{\"x\":0,\"y\":%d},\"seats\":[%s]}", row, 30 * row,
                        seats));
            }
            zones.append(zone > 1 ? "," : "").append(String.format(
                    "{\"name\":\"Zone %d\",\"position\":{\"x\":0,\"y\":%d},\"rows\":[%s]}", zone, 800 * zone,
                    rows));
        }
        String categories = "[{\"name\":\"Zone 1\"},{\"name\":\"Zone 2\"},{\"name\":\"Zone 3\"},{\"name\":\"Zone 4\"}]";
        String plan = "{\"name\":\"Arena\",\"categories\":" + categories + ",\"size\":{\"width\":2600,\"height\":4000},"
                + "\"zones\":[" + zones + "]}";
        Load.Operation importing = (client, index) -> {
            String event = admin.event()[0];
            long item = admin.item(event, true);
            String mapping = "{\"Zone 1\":" + item + ",\"Zone 2\":" + item + ",\"Zone 3\":" + item + ",\"Zone 4\":"
                    + item + "}";
            return admin.put("/api/v1/events/" + event + "/seating_plan",
                    "{\"plan\":" + plan + ",\"categories\":" + mapping + "}").status() == 200;
        };
        String sized = admin.event()[0];
        long item = admin.item(sized, true);
        admin.put("/api/v1/events/" + sized + "/seating_plan", "{\"plan\":" + plan + ",\"categories\":{\"Zone 1\":"
                + item + ",\"Zone 2\":" + item + ",\"Zone 3\":" + item + ",\"Zone 4\":" + item + "}}");
        String path = "/api/v1/events/" + sized + "/seating_plan";
        return new Prepared(String.format("P import 10,000 seats (GET %,d KB, gzip %,d KB)",
                admin.bytes(path, false) / 1024, admin.bytes(path, true) / 1024), importing, 3, false);
    }

    /**
     * (1 on dates) Scenario 1 on one date of an event with {@code dates} dates (contract section 10): the quota is the
     * date's, and every date has one like it. The other dates are written in SQL: it is set-up.
     */
    private static Prepared hotDate(Admin admin, List<Load.Client> buyers, Connection sql, int dates)
            throws Exception {
        String[] event = admin.event();
        long item = admin.item(event[0], false);
        long hot = admin.date(event[0], 1);
        admin.quotaOn(event[0], hot, item, HOT_QUOTA);
        try (Statement statement = sql.createStatement()) {
            statement.execute(String.format("""
                    WITH other AS (INSERT INTO event_dates (event_id, name, starts_at)
                                   SELECT %1$d, 'Date ' || g, now() + g * interval '1 day'
                                   FROM generate_series(2, %2$d) g RETURNING id),
                    quota AS (INSERT INTO quotas (event_id, name, size, date_id)
                              SELECT %1$d, 'Hot', %3$d, id FROM other RETURNING id)
                    INSERT INTO quota_items (quota_id, item_id) SELECT id, %4$d FROM quota""",
                    Long.parseLong(event[1]), dates, HOT_QUOTA, item));
            statement.execute("ANALYZE event_dates, quotas, quota_items");
        }
        List<List<String>> carts = carts(buyers, i -> event[0]);
        String body = "{\"positions\":[{\"item_id\":" + item + ",\"date_id\":" + hot + "}]}";
        return new Prepared(String.format("1 on one date of %,d", dates), (client, index) -> {
            List<String> mine = carts.get(index);
            String cart = mine.get(client.random.nextInt(mine.size()));
            return client.accepted(client.post("/api/v1/events/" + event[0] + "/carts/" + cart + "/positions", body));
        }, 1, false);
    }

    /**
     * (6 on dates) Scenario 6 spread over {@code dates} dates of one event, 2,000 seats (20 rows of 100) each: buyer
     * {@code i} takes the best 4 on date {@code i mod dates}. Each choice locks its date exclusively, not the event, so
     * the dates do not wait for each other.
     */
    private static Prepared bestAvailableOnDates(Admin admin, int dates) throws Exception {
        String[] event = admin.event();
        long item = admin.item(event[0], true);
        List<Long> dateIds = new ArrayList<>();
        for (int n = 1; n <= dates; n++) {
            long date = admin.date(event[0], n);
            admin.quotaOn(event[0], date, item, HOT_QUOTA);
            admin.seatRowsOn(event[0], date, item, 20, 100);
            dateIds.add(date);
        }
        return new Prepared(String.format("6 best 4 seats on %d dates", dates), (client, index) -> {
            String body = "{\"item_id\":" + item + ",\"quantity\":4,\"date_id\":" + dateIds.get(index % dates) + "}";
            String cart = client.newCart(event[0]);
            String path = "/api/v1/events/" + event[0] + "/carts/" + cart;
            return client.accepted(client.post(path + "/best_available", body))
                    && client.accepted(client.delete(path));
        }, 3, false);
    }

    /**
     * {@code count} entries waiting for one place each of an item in the quota that is not on sale (inactive): they
     * are counted in every sale of the quota, and no offer run offers them anything. Written in SQL: it is set-up.
     */
    private static void waitBeforehand(Connection sql, long event, long quota, int count) throws Exception {
        if (count == 0) {
            return;
        }
        try (Statement statement = sql.createStatement()) {
            statement.execute(String.format("""
                    WITH waited AS (INSERT INTO items (event_id, name, price, active)
                                    VALUES (%1$d, 'Waited for', 10, false) RETURNING id),
                    member AS (INSERT INTO quota_items (quota_id, item_id) SELECT %2$d, id FROM waited)
                    INSERT INTO waiting_list_entries (id, event_id, item_id, quantity, email)
                    SELECT 'bench-wait-' || lpad(g::text, 12, '0') || '-' || %1$d, %1$d, waited.id, 1,
                      'fan' || g || '@example.com'
                    FROM waited CROSS JOIN generate_series(1, %3$d) g""", event, quota, count));
            statement.execute("ANALYZE waiting_list_entries, item_waiting");
        }
    }

    /**
     * (8) A cancel reaching the waiting list: an item sold out to pending orders, as many entries waiting for it;
     * each operation cancels the next order, then reads the next entry until it carries its offer. Its latency is
     * the cancel's answer plus the offer's way through the task queue on any replica.
     */
    private static Prepared offers(Admin admin, Connection sql) throws Exception {
        int sold = 5_000;
        String[] event = admin.event();
        long eventId = Long.parseLong(event[1]);
        admin.enableWaitingList(event[0]);
        long item = admin.item(event[0], false);
        admin.quota(event[0], item, sold);
        List<String> orders = new ArrayList<>();
        List<String> entries = new ArrayList<>();
        try (Statement statement = sql.createStatement()) {
            statement.execute(String.format("""
                    WITH placed AS (
                      INSERT INTO orders (event_id, code, email, status, expires)
                      SELECT %1$d, 'bench-order-' || lpad(g::text, 12, '0') || '-' || %1$d, 'buyer@example.com',
                        'pending', now() + interval '14 days'
                      FROM generate_series(1, %3$d) g RETURNING id)
                    INSERT INTO order_positions (order_id, item_id, price) SELECT id, %2$d, 10 FROM placed""",
                    eventId, item, sold));
            statement.execute(String.format("""
                    INSERT INTO waiting_list_entries (id, event_id, item_id, quantity, email)
                    SELECT 'bench-entry-' || lpad(g::text, 12, '0') || '-' || %1$d, %1$d, %2$d, 1,
                      'fan' || g || '@example.com'
                    FROM generate_series(1, %3$d) g ORDER BY g""", eventId, item, sold));
            try (var rows = statement.executeQuery(
                    "SELECT code FROM orders WHERE event_id = " + eventId + " ORDER BY id")) {
                while (rows.next()) {
                    orders.add(rows.getString(1));
                }
            }
            try (var rows = statement.executeQuery(
                    "SELECT id FROM waiting_list_entries WHERE event_id = " + eventId + " ORDER BY seq")) {
                while (rows.next()) {
                    entries.add(rows.getString(1));
                }
            }
            statement.execute("ANALYZE orders, order_positions, waiting_list_entries, item_waiting");
        }
        AtomicInteger next = new AtomicInteger();
        String list = "/api/v1/events/" + event[0] + "/waiting_list/";
        return new Prepared("8 cancel, until the next entry's offer", (client, index) -> {
            int mine = next.getAndIncrement();
            admin.cancel(event[0], orders.get(mine));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline) {
                if (client.get(list + entries.get(mine)).body().contains("\"status\":\"offered\"")) {
                    return true;
                }
                Thread.sleep(2); // a client polling its entry: the offer is made elsewhere, by a task worker
            }
            return false;
        }, 2, false);
    }

    /**
     * Other events, as a ticketing database accumulates them, until there are {@code quotas} of their quotas: each
     * event has four items and two quotas over them. Written in SQL: it is set-up.
     */
    private static void catalogOf(Connection sql, int quotas) throws Exception {
        if (quotas == 0) {
            return;
        }
        try (Statement statement = sql.createStatement()) {
            statement.execute(String.format("""
                    CREATE TEMP TABLE catalog AS
                    SELECT 'bench-catalog-' || g AS slug FROM generate_series(1, %d) g
                    WHERE NOT EXISTS (SELECT 1 FROM events WHERE slug = 'bench-catalog-' || g);
                    INSERT INTO events (slug, name, currency) SELECT slug, 'Catalog', 'EUR' FROM catalog;
                    INSERT INTO items (event_id, name, price) SELECT e.id, 'Ticket', 10
                    FROM events e JOIN catalog USING (slug) CROSS JOIN generate_series(1, 4);
                    INSERT INTO quotas (event_id, name, size) SELECT e.id, 'Quota', 100
                    FROM events e JOIN catalog USING (slug) CROSS JOIN generate_series(1, 2);
                    INSERT INTO quota_items (quota_id, item_id) SELECT q.id, i.id
                    FROM events e JOIN catalog USING (slug) JOIN quotas q ON q.event_id = e.id
                      JOIN items i ON i.event_id = e.id;
                    DROP TABLE catalog""", quotas / 2));
        }
    }

    /**
     * Holds with deadlines spread over the next 30 minutes, as a running sale leaves them, in carts of ten; and
     * as many order positions, half paid and half pending, in orders of five. Written in SQL: it is set-up.
     */
    private static void sellBeforehand(Connection sql, long event, long item, int count) throws Exception {
        if (count == 0) {
            return;
        }
        try (Statement statement = sql.createStatement()) {
            statement.execute(String.format("""
                    INSERT INTO carts (id, event_id, expires)
                    SELECT 'bench-held-%1$d-' || lpad(g::text, 9, '0'), %2$d, now() + interval '31 minutes'
                    FROM generate_series(0, %3$d / 10) g;
                    INSERT INTO cart_positions (cart_id, item_id, price, expires)
                    SELECT 'bench-held-%1$d-' || lpad((g / 10)::text, 9, '0'), %1$d, 10,
                      date_trunc('second', now()) + (1 + g %% 1800) * interval '1 second'
                    FROM generate_series(0, %3$d - 1) g;
                    INSERT INTO orders (event_id, code, email, status, expires)
                    SELECT %2$d, md5(random()::text), 'buyer@example.com',
                      CASE WHEN g %% 2 = 0 THEN 'paid' ELSE 'pending' END, now() + interval '14 days'
                    FROM generate_series(1, %3$d / 5) g;
                    INSERT INTO order_positions (order_id, item_id, price)
                    SELECT o.id, %1$d, 10 FROM orders o CROSS JOIN generate_series(1, 5) WHERE o.event_id = %2$d""",
                    item, event, count));
            statement.execute("VACUUM ANALYZE item_holds, item_sales, cart_positions, order_positions, orders");
        }
    }

    /** (2) The whole purchase: create a cart, add a ticket, check out. */
    private static Prepared purchase(Admin admin) throws Exception {
        String[] event = admin.event();
        long item = admin.item(event[0], false);
        admin.quota(event[0], item, HOT_QUOTA);
        String body = "{\"positions\":[{\"item_id\":" + item + "}]}";
        return new Prepared("2 cart, add, checkout", (client, index) -> {
            String cart = client.newCart(event[0]);
            if (!client.accepted(client.post("/api/v1/events/" + event[0] + "/carts/" + cart + "/positions", body))) {
                return false;
            }
            return client.accepted(client.post("/api/v1/events/" + event[0] + "/orders",
                    "{\"cart_id\":\"" + cart + "\",\"email\":\"buyer@example.com\"}"));
        }, 3, true);
    }

    /**
     * (3) Seat picking: a random seat of 10,000 into a new cart; taken seats are refused. (5) The same with
     * every {@code bigCartEvery}-th operation a cart of 25 random seats, which locks the event exclusively.
     */
    private static Prepared seats(Admin admin, int bigCartEvery) throws Exception {
        String[] event = admin.event();
        long item = admin.item(event[0], true);
        admin.quota(event[0], item, HOT_QUOTA);
        admin.seats(event[0], item, SEATS);
        String name = bigCartEvery == 0 ? "3 random seat of 10,000" : "5 25-seat carts among single seats";
        return new Prepared(name, (client, index) -> {
            int seats = bigCartEvery > 0 && client.random.nextInt(bigCartEvery) == 0 ? 25 : 1;
            Set<Integer> picked = new HashSet<>();
            while (picked.size() < seats) {
                picked.add(client.random.nextInt(SEATS));
            }
            StringJoiner positions = new StringJoiner(",", "{\"positions\":[", "]}");
            picked.forEach(seat -> positions.add("{\"item_id\":" + item + ",\"seat_guid\":\"s" + seat + "\"}"));
            String cart = client.newCart(event[0]);
            return client.accepted(client.post("/api/v1/events/" + event[0] + "/carts/" + cart + "/positions",
                    positions.toString()));
        }, 2, false);
    }

    /**
     * (6) Best available: a new cart takes the best 4 adjacent seats of 10,000 (100 rows of 100), then is deleted,
     * so the venue neither fills nor empties. Each choice locks the event exclusively.
     */
    private static Prepared bestAvailable(Admin admin) throws Exception {
        String[] event = admin.event();
        long item = admin.item(event[0], true);
        admin.quota(event[0], item, HOT_QUOTA);
        admin.seatRows(event[0], item, 100, 100);
        String body = "{\"item_id\":" + item + ",\"quantity\":4}";
        return new Prepared("6 best 4 adjacent seats, then delete", (client, index) -> {
            String cart = client.newCart(event[0]);
            String path = "/api/v1/events/" + event[0] + "/carts/" + cart;
            return client.accepted(client.post(path + "/best_available", body))
                    && client.accepted(client.delete(path));
        }, 3, false);
    }

    /**
     * (7) The waiting room at its busiest: 20,000 buyers queued ahead, admitted at 60,000 a minute, while each client
     * polls its own ticket and, once it is admitted, takes a new one. An operation is one poll (or join).
     */
    private static Prepared waitingRoom(Admin admin, List<Load.Client> buyers, Connection sql) throws Exception {
        String[] event = admin.event();
        long eventId = Long.parseLong(event[1]);
        admin.openWaitingRoom(event[0], 60_000);
        try (Statement statement = sql.createStatement()) {
            statement.execute(
                    "INSERT INTO queue_tickets (id, event_id, place) SELECT 'bench-ahead-' || lpad(n::text, 12, '0') || '-' || "
                            + eventId + ", " + eventId
                            + ", 1 + nextval('queue_arrivals') FROM generate_series(1, 20000) n");
            statement.execute("ANALYZE queue_tickets");
        }
        String queue = "/api/v1/events/" + event[0] + "/queue";
        List<String[]> tickets = new ArrayList<>();
        for (Load.Client buyer : buyers) {
            tickets.add(new String[]{join(buyer, queue)});
        }
        return new Prepared("7 waiting room: poll, 20,000 ahead", (client, index) -> {
            String[] mine = tickets.get(index);
            Http.Response poll = client.get(queue + "/" + mine[0]);
            if (poll.body().contains("\"admission_token\":\"")) {
                mine[0] = join(client, queue);
            }
            return poll.status() == 200;
        }, 1, false, () -> admittedSoFar(sql, eventId));
    }

    /** A new queue ticket. */
    private static String join(Load.Client client, String queue) throws Exception {
        Http.Response joined = client.post(queue, null);
        if (joined.status() != 201) {
            throw new IllegalStateException("could not join the queue: " + joined.status() + " " + joined.body());
        }
        int start = joined.body().indexOf("\"ticket\":\"") + 10;
        return joined.body().substring(start, joined.body().indexOf('"', start));
    }

    private static long admittedSoFar(Connection sql, long eventId) {
        try (Statement statement = sql.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT count(*) FROM queue_tickets WHERE admitted_at IS NOT NULL AND event_id = " + eventId)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** (4) Scenario (1) spread over 50 events: buyer i buys in event i mod 50. */
    private static Prepared spread(Admin admin, List<Load.Client> buyers) throws Exception {
        List<String> events = new ArrayList<>();
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String[] event = admin.event();
            long item = admin.item(event[0], false);
            admin.quota(event[0], item, HOT_QUOTA);
            events.add(event[0]);
            bodies.add("{\"positions\":[{\"item_id\":" + item + "}]}");
        }
        List<List<String>> carts = carts(buyers, i -> events.get(i % 50));
        return new Prepared("4 one ticket, spread over 50 events", (client, index) -> {
            List<String> mine = carts.get(index);
            String cart = mine.get(client.random.nextInt(mine.size()));
            return client.accepted(client.post("/api/v1/events/" + events.get(index % 50) + "/carts/" + cart
                    + "/positions", bodies.get(index % 50)));
        }, 1, false);
    }

    /** A hot quota of its own for one pgbench run, so that no run counts another's holds. */
    static Ceiling.Target ceilingTarget(Admin admin) throws Exception {
        String[] event = admin.event();
        long item = admin.item(event[0], false);
        long quota = admin.quota(event[0], item, HOT_QUOTA);
        return new Ceiling.Target(Long.parseLong(event[1]), quota, item);
    }

    private static List<List<String>> carts(List<Load.Client> buyers, java.util.function.IntFunction<String> eventOf)
            throws Exception {
        List<List<String>> carts = new ArrayList<>();
        for (int i = 0; i < buyers.size(); i++) {
            List<String> mine = new ArrayList<>();
            for (int c = 0; c < CARTS_PER_BUYER; c++) {
                mine.add(buyers.get(i).newCart(eventOf.apply(i)));
            }
            carts.add(mine);
        }
        return carts;
    }
}

package io.ticketing.reservations.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ticketing.reservations.bench.Service;
import io.ticketing.reservations.locking.LockTarget;

/**
 * The fault suite (docs/operations.md, "Under faults"): two replicas of the packaged service on one PostgreSQL, storefronts
 * buying with idempotency keys, and one fault at a time: (a) kill -9 of a replica, (b) PostgreSQL restarted fast
 * and immediate, (c) the same through PgBouncer in transaction mode, (d) an event lock held 10 s from outside,
 * (e) 300 clients, (f) SIGTERM during 32 checkouts, (g) the waiting room across a restart, (h) one waiting list
 * swept by two replicas while its item's orders are canceled, (i) a token revoked on one of two replicas, (j) the
 * primary killed and its synchronous standby promoted ({@link Failover}, with its asynchronous twin), (k) a rolling
 * upgrade from an older release ({@link RollingUpgrade}). After each, the invariants are checked in SQL, and a table
 * row says what the clients saw. Minutes long; never part of the test suite.
 */
public final class FaultSuite {

    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private static final Pattern CART = Pattern.compile("\"id\":\"([^\"]+)\"");
    private static final Pattern TICKET = Pattern.compile("\"ticket\":\"([^\"]+)\"");

    private final Database database;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private int replicaCount;
    private final List<Service> started = new ArrayList<>();

    private FaultSuite(Database database) {
        this.database = database;
    }

    public static void main(String[] args) throws Exception {
        DriverManager.registerDriver(new org.postgresql.Driver());
        List<String> faults = List.of(System.getProperty("faults", "a,b,c,d,e,f,g,h,i,j,k").split(","));
        List<String> rows = new ArrayList<>();
        String header = "| fault | requests by status | invariants | p99 / slowest unaffected | longest to resolve "
                + "| verdict |";
        rows.add(header);
        rows.add(header.replaceAll("[^|]", "-"));
        try (Database database = Database.start(Path.of("target", "faults-postgres"))) {
            FaultSuite suite = new FaultSuite(database);
            // However the suite ends, no replica outlives it to load the next measurement.
            Runtime.getRuntime().addShutdownHook(new Thread(suite::killReplicas));
            for (String fault : faults) {
                String row;
                try {
                    row = suite.run(fault.trim());
                } catch (Exception | AssertionError e) {
                    e.printStackTrace();
                    row = "| (" + fault.trim() + ") | the suite itself failed: " + e + " | | | | FAIL |";
                } finally {
                    suite.stopReplicas();
                }
                System.out.println(row);
                rows.add(row);
            }
        }
        String table = String.join(System.lineSeparator(), rows);
        System.out.println(table);
        Files.writeString(Path.of("target", "fault-results.md"), table + System.lineSeparator());
    }

    private String run(String fault) throws Exception {
        return switch (fault) {
            case "a" -> killedReplica();
            case "b" -> restartedDatabase(false);
            case "c" -> Database.bouncerInstalled()
                    ? restartedDatabase(true)
                    : "| (c) PgBouncer | not run: pgbouncer is not installed here | | | | skipped |";
            case "d" -> heldEventLock();
            case "e" -> manyClients();
            case "f" -> rollingRestart();
            case "g" -> waitingRoomAcrossRestart();
            case "h" -> waitingListOnTwoReplicas();
            case "i" -> revokedOnTwoReplicas();
            case "j" -> new Failover(this, database).run(true) + System.lineSeparator()
                    + new Failover(this, database).run(false);
            case "k" -> new RollingUpgrade(this, database).run();
            default -> throw new IllegalArgumentException("no fault " + fault);
        };
    }

    /** (a) One replica killed with -9 mid-load; its clients retry their open requests on the other. */
    private String killedReplica() throws Exception {
        List<Service> replicas = replicas(Map.of(), Map.of());
        Sale sale = sale(replicas.get(0));
        Shoppers shoppers = sale.shoppers(replicas);
        shoppers.start(16);
        Thread.sleep(5_000);
        replicas.get(0).kill();
        Thread.sleep(8_000);
        shoppers.finish();
        return row("(a) kill -9 one of two replicas, 16 clients", shoppers, sale, "p99 " + shoppers.p99Millis() + " ms",
                shoppers.count500() == 0 && shoppers.unresolved.sum() == 0);
    }

    /** (b), (c) PostgreSQL stopped fast, then immediate, under load; through PgBouncer if asked. */
    private String restartedDatabase(boolean bouncer) throws Exception {
        Map<String, String> first = Map.of();
        Map<String, String> second = Map.of();
        if (bouncer) {
            String pooled = database.startBouncer();
            // The first replica listens on its own direct connection; the second leaves LISTEN to the pooler, and
            // must say in its log that it polls instead.
            first = Map.of("QUARKUS_DATASOURCE_JDBC_URL", pooled, "TASKS_LISTEN_URL", database.url());
            second = Map.of("QUARKUS_DATASOURCE_JDBC_URL", pooled);
        }
        List<Service> replicas = replicas(first, second);
        Sale sale = sale(replicas.get(0));
        Shoppers shoppers = sale.shoppers(replicas);
        shoppers.start(16);
        for (Database.Stop how : Database.Stop.values()) {
            Thread.sleep(4_000);
            database.stop(how);
            Thread.sleep(2_000);
            database.startAgain();
        }
        Thread.sleep(5_000);
        shoppers.finish();
        boolean warned = !bouncer
                || Files.readString(Path.of("target", "faults-replica-" + (replicaCount - 1) + ".log"))
                        .contains("does not hear a NOTIFY sent to it");
        database.stopBouncer();
        String name = bouncer
                ? "(c) the same through PgBouncer (transaction mode, prepareThreshold=0)"
                        + (warned ? "; polling fallback logged" : "; NO WARNING about polling")
                : "(b) PostgreSQL restarted -m fast, then -m immediate, 16 clients";
        return row(name, shoppers, sale, "p99 " + shoppers.p99Millis() + " ms",
                warned && shoppers.count500() == 0 && shoppers.unresolved.sum() == 0);
    }

    /** (d) One event's lock held 10 s from outside while its writers, its reads and another event are timed. */
    private String heldEventLock() throws Exception {
        List<Service> replicas = replicas(Map.of(), Map.of());
        Sale locked = sale(replicas.get(0));
        Sale other = sale(replicas.get(0));
        Shoppers writers = locked.shoppers(replicas);
        Shoppers unaffected = other.shoppers(replicas);
        AtomicLong slowest = new AtomicLong();
        for (int replica = 0; replica < 2; replica++) {
            probe(replicas.get(replica), replica, locked, other, unaffected); // untimed: fresh JVMs
        }
        try (Connection holder = DriverManager.getConnection(database.url(), database.username(),
                database.password()); Statement statement = holder.createStatement()) {
            statement.execute("SELECT pg_advisory_lock(" + LockTarget.event(locked.id).key() + ")");
            writers.start(16);
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            int replica = 0;
            while (System.nanoTime() < until) {
                replica = (replica + 1) % 2;
                String base = replicas.get(replica).base;
                slowest.accumulateAndGet(timed(() -> get(base + "/api/v1/events/" + locked.slug + "/catalog")),
                        Math::max);
                String management = replicas.get(replica).management;
                slowest.accumulateAndGet(timed(() -> get(management + "/q/health/ready")), Math::max);
                int on = replica;
                slowest.accumulateAndGet(timed(() -> unaffected.post(on, "/api/v1/events/" + locked.slug + "/carts",
                        null)), Math::max);
                slowest.accumulateAndGet(timed(() -> buyOne(unaffected, on, other)), Math::max);
            }
            statement.execute("SELECT pg_advisory_unlock_all()");
            writers.finish();
        }
        long lockTimeout = writers.slowestLockTimeoutMillis.get();
        return row("(d) event lock held 10 s from outside, 16 writers; reads, cart creation, another event timed",
                writers, locked, "slowest unaffected " + slowest.get() + " ms; slowest lock_timeout " + lockTimeout
                        + " ms",
                slowest.get() < 1000 && lockTimeout < 3500 && writers.count500() == 0
                        && unaffected.count500() == 0);
    }

    /**
     * What must not wait for a locked event: its ticket page, readiness, a cart in it, and an add to cart in another
     * event. Returns the slowest answer's time in milliseconds.
     */
    private long probe(Service service, int replica, Sale locked, Sale other, Shoppers unaffected) {
        String base = service.base;
        return List.<Runnable>of(() -> get(base + "/api/v1/events/" + locked.slug + "/catalog"),
                () -> get(service.management + "/q/health/ready"),
                () -> unaffected.post(replica, "/api/v1/events/" + locked.slug + "/carts", null),
                () -> buyOne(unaffected, replica, other)).stream().mapToLong(FaultSuite::timed).max().orElse(0);
    }

    /** (e) 300 clients on two replicas: refused early when overloaded, never answered late or with a 500. */
    private String manyClients() throws Exception {
        List<Service> replicas = replicas(Map.of(), Map.of());
        Sale sale = sale(replicas.get(0));
        Shoppers shoppers = sale.shoppers(replicas);
        shoppers.start(300);
        long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        long slowestReadiness = 0;
        while (System.nanoTime() < until) {
            for (Service replica : replicas) {
                slowestReadiness = Math.max(slowestReadiness, timed(() -> get(replica.management + "/q/health/ready")));
            }
        }
        shoppers.finish();
        return row("(e) 300 clients for 15 s", shoppers, sale,
                "p99 " + shoppers.p99Millis() + " ms; slowest readiness " + slowestReadiness + " ms",
                shoppers.count500() == 0 && shoppers.unresolved.sum() == 0 && shoppers.p99Millis() < 4000
                        && slowestReadiness < 1000);
    }

    /** (f) SIGTERM to a replica while 32 checkouts run on it: none may fail, and it must go not-ready and exit. */
    private String rollingRestart() throws Exception {
        List<Service> replicas = replicas(Map.of(), Map.of());
        Service stopping = replicas.get(0);
        Sale sale = sale(stopping);
        Shoppers shoppers = sale.shoppers(List.of(stopping));
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            String cart = cartId(shoppers.post(0, "/api/v1/events/" + sale.slug + "/carts", null).body());
            shoppers.post(0, "/api/v1/events/" + sale.slug + "/carts/" + cart + "/positions",
                    "{\"positions\":[{\"item_id\":" + sale.item + "}]}");
            carts.add(cart);
        }
        ExecutorService clients = Executors.newFixedThreadPool(33);
        long notReady = -1;
        int servedDuringDelay = 0;
        Map<Integer, Integer> statuses = new HashMap<>();
        Duration exited;
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> checkouts = new ArrayList<>();
            for (String cart : carts) {
                checkouts.add(clients.submit(() -> {
                    go.await();
                    return http.send(HttpRequest.newBuilder(URI.create(stopping.base + "/api/v1/events/" + sale.slug
                            + "/orders")).header("Authorization", "Bearer " + Service.STOREFRONT)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"cart_id\":\"" + cart
                                    + "\",\"email\":\"buyer@example.com\"}"))
                            .build(),
                            HttpResponse.BodyHandlers.ofString()).statusCode();
                }));
            }
            go.countDown();
            Future<Duration> exit = clients.submit(stopping::terminate);
            long sent = System.nanoTime();
            while (notReady < 0 && System.nanoTime() - sent < Duration.ofSeconds(5).toNanos()) {
                if (get(stopping.management + "/q/health/ready") == 503) {
                    notReady = (System.nanoTime() - sent) / 1_000_000;
                }
            }
            if (get(stopping.base + "/api/v1/events/" + sale.slug + "/catalog") == 200) {
                servedDuringDelay++;
            }
            for (Future<Integer> checkout : checkouts) {
                statuses.merge(checkout.get(60, TimeUnit.SECONDS), 1, Integer::sum);
            }
            exited = exit.get(120, TimeUnit.SECONDS);
        } finally {
            clients.shutdownNow();
        }
        List<String> answered = sale.orderCodes(database);
        String invariants = Invariants.check(database, sale.id, answered);
        boolean ok = statuses.getOrDefault(201, 0) == 32 && notReady >= 0 && notReady < 1000
                && servedDuringDelay == 1 && exited.toSeconds() < 30 && invariants.equals("all hold");
        return "| (f) SIGTERM during 32 checkouts | checkouts " + statuses + "; a read after SIGTERM "
                + (servedDuringDelay == 1 ? "served" : "refused") + " | " + invariants + " | not ready after "
                + notReady + " ms | exited after " + exited.toMillis() + " ms | " + (ok ? "pass" : "FAIL") + " |";
    }

    /**
     * (g) A waiting room with 500 buyers queued on two replicas before the opening, admitted at 600 a minute; one
     * replica is killed with -9 five seconds after the opening and started again five seconds later.
     */
    private String waitingRoomAcrossRestart() throws Exception {
        List<Service> replicas = replicas(Map.of(), Map.of());
        Sale sale = sale(replicas.get(0));
        Instant opensAt = Instant.now().plusSeconds(20);
        // Through the API: replica 0 forgets its cached event at once, and replica 1 has not read it yet.
        HttpResponse<String> opened = http.send(HttpRequest.newBuilder(URI.create(replicas.get(0).base
                + "/api/v1/events/" + sale.slug)).header("Authorization", "Bearer " + Service.ADMIN)
                .header("Content-Type", "application/json").header("If-Match", "\"0\"")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"waiting_room\":{\"enabled\":true,"
                        + "\"admission_per_minute\":600,\"opens_at\":\"" + opensAt + "\"}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (opened.statusCode() != 200) {
            throw new IllegalStateException("opening the room answered " + opened.statusCode() + ": " + opened.body());
        }
        List<String> tickets = new ArrayList<>();
        while (tickets.size() < 500) {
            Service replica = replicas.get(tickets.size() % 2);
            HttpResponse<String> joined = http.send(HttpRequest.newBuilder(URI.create(replica.base + "/api/v1/events/"
                    + sale.slug + "/queue")).header("Authorization", "Bearer " + Service.STOREFRONT)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            if (joined.statusCode() != 201) {
                throw new IllegalStateException("joining answered " + joined.statusCode() + ": " + joined.body());
            }
            tickets.add(first(TICKET, joined.body()));
        }
        if (Instant.now().isAfter(opensAt)) {
            throw new IllegalStateException("the queue filled after the opening");
        }
        Thread.sleep(Duration.between(Instant.now(), opensAt).plusSeconds(5).toMillis());
        replicas.get(0).kill();
        Thread.sleep(5_000);
        Service again = Service.start("faults-replica-" + replicaCount++, database.url(), database.username(),
                database.password(), Map.of("QUARKUS_LOG_LEVEL", "INFO"));
        synchronized (this) {
            started.add(again);
        }
        Thread.sleep(10_000);
        int kept = 0;
        for (String ticket : tickets) {
            if (get(again.base + "/api/v1/events/" + sale.slug + "/queue/" + ticket) == 200) {
                kept++;
            }
        }
        double openSeconds = Duration.between(opensAt, Instant.now()).toMillis() / 1000.0;
        List<Double> admittedAt = new ArrayList<>();
        boolean lowestFirst;
        try (Connection sql = DriverManager.getConnection(database.url(), database.username(), database.password());
                Statement statement = sql.createStatement()) {
            var rows = statement.executeQuery("SELECT extract(epoch FROM admitted_at - '" + opensAt + "')"
                    + " FROM queue_tickets WHERE event_id = " + sale.id + " AND admitted_at IS NOT NULL"
                    + " ORDER BY admitted_at");
            while (rows.next()) {
                admittedAt.add(rows.getDouble(1));
            }
            rows = statement.executeQuery("SELECT bool_and(a.admitted_at IS NOT NULL) FROM (SELECT admitted_at"
                    + " FROM queue_tickets WHERE event_id = " + sale.id + " ORDER BY place LIMIT "
                    + admittedAt.size() + ") a");
            rows.next();
            lowestFirst = rows.getBoolean(1);
        }
        double smallestGap = Double.MAX_VALUE;
        for (int i = 1; i < admittedAt.size(); i++) {
            smallestGap = Math.min(smallestGap, admittedAt.get(i) - admittedAt.get(i - 1));
        }
        double expected = openSeconds * 10;
        boolean ok = kept == 500 && lowestFirst && smallestGap >= 0.1 - 0.000_01 && admittedAt.get(0) >= 0
                && admittedAt.size() <= expected + 1 && admittedAt.size() >= 0.8 * expected;
        return String.format("| (g) waiting room, 500 queued on two replicas, 600 a minute, one killed and started"
                + " again | %d of 500 tickets readable after the restart | admitted %d in %.1f s (at most %.0f);"
                + " the lowest places first: %s; smallest gap %.0f ms | first admission %.0f ms after the opening"
                + " | - | %s |", kept, admittedAt.size(), openSeconds, expected + 1, lowestFirst, smallestGap * 1000,
                admittedAt.get(0) * 1000, ok ? "pass" : "FAIL");
    }

    /**
     * (h) Forty tickets sold, forty buyers on the item's waiting list; the forty orders are canceled through both
     * replicas, four at a time, while both replicas' workers and sweeps make offers. Every entry must be offered
     * exactly once, in the list's order, and the quota never hold more than its size.
     */
    private String waitingListOnTwoReplicas() throws Exception {
        // Forty buyers, who here share one address.
        Map<String, String> oneAddress = Map.of("WAITING_LIST_ENTRIES_PER_CLIENT", "40");
        List<Service> replicas = replicas(oneAddress, oneAddress);
        Service first = replicas.get(0);
        String slug = "list-" + System.nanoTime();
        long eventId = id(admin(first, "/api/v1/events",
                "{\"slug\":\"" + slug + "\",\"name\":\"List\",\"currency\":\"EUR\"}"));
        send(first, "PATCH", "/api/v1/events/" + slug, "{\"waiting_list\":{\"enabled\":true}}", Service.ADMIN, 200);
        long item = id(admin(first, "/api/v1/events/" + slug + "/items", "{\"name\":\"Ticket\",\"price\":\"10.00\"}"));
        admin(first, "/api/v1/events/" + slug + "/quotas", "{\"name\":\"Hall\",\"size\":40,\"items\":[" + item + "]}");
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String cart = cartId(send(first, "POST", "/api/v1/events/" + slug + "/carts", null, Service.STOREFRONT,
                    201));
            send(first, "POST", "/api/v1/events/" + slug + "/carts/" + cart + "/positions",
                    "{\"positions\":[{\"item_id\":" + item + "}]}", Service.STOREFRONT, 201);
            orders.add(first(Pattern.compile("\"code\":\"([^\"]+)\""), send(first, "POST", "/api/v1/events/" + slug
                    + "/orders", "{\"cart_id\":\"" + cart + "\",\"email\":\"b@example.com\"}", Service.STOREFRONT,
                    201)));
        }
        for (int i = 0; i < 40; i++) {
            send(replicas.get(i % 2), "POST", "/api/v1/events/" + slug + "/waiting_list", "{\"item_id\":" + item
                    + ",\"email\":\"fan" + i + "@example.com\"}", Service.STOREFRONT, 201);
        }
        long started = System.nanoTime();
        ExecutorService cancels = Executors.newFixedThreadPool(4);
        for (int i = 0; i < orders.size(); i++) {
            Service replica = replicas.get(i % 2);
            String code = orders.get(i);
            cancels.submit(() -> send(replica, "POST", "/api/v1/events/" + slug + "/orders/" + code + "/cancel", null,
                    Service.ADMIN, 200));
        }
        cancels.shutdown();
        cancels.awaitTermination(60, TimeUnit.SECONDS);
        long offered = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        try (Connection sql = DriverManager.getConnection(database.url(), database.username(), database.password());
                Statement statement = sql.createStatement()) {
            while (offered < 40 && System.nanoTime() < deadline) {
                Thread.sleep(200); // polling the database, as the storefront polls its entries
                var rows = statement.executeQuery("SELECT count(*) FROM waiting_list_entries WHERE event_id = "
                        + eventId + " AND status = 'offered'");
                rows.next();
                offered = rows.getLong(1);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            var rows = statement.executeQuery("""
                    SELECT (SELECT count(*) FROM vouchers WHERE event_id = %1$d AND NOT gives_back),
                           (SELECT count(DISTINCT voucher_id) FROM waiting_list_entries WHERE event_id = %1$d),
                           (SELECT bool_and(in_order) FROM (
                              SELECT voucher_id > coalesce(lag(voucher_id) OVER (ORDER BY seq), 0) AS in_order
                              FROM waiting_list_entries WHERE event_id = %1$d) ordered)""".formatted(eventId));
            rows.next();
            long vouchers = rows.getLong(1);
            long distinct = rows.getLong(2);
            boolean inOrder = rows.getBoolean(3);
            String invariants = Invariants.check(database, eventId, List.of());
            boolean ok = offered == 40 && vouchers == 40 && distinct == 40 && inOrder && invariants.equals("all hold");
            return String.format("| (h) waiting list of 40 swept by two replicas while its 40 orders are canceled"
                    + " through both | %d of 40 entries offered, %d offer vouchers for %d entries, in list order: %s"
                    + " | %s | all offered %.1f s after the first cancel | - | %s |", offered, vouchers, distinct,
                    inOrder, invariants, seconds, ok ? "pass" : "FAIL");
        }
    }

    /** A request with a body (or none) and a token, which must answer {@code expected}; returns the body. */
    /**
     * (i) An organizer's API token revoked on one replica while both use it: refused by the other within 2 s (contract
     * section 11), each replica having used it, so each knew it, before.
     */
    private String revokedOnTwoReplicas() throws Exception {
        List<Service> replicas = replicas(Map.of(), Map.of());
        Service first = replicas.get(0);
        Service second = replicas.get(1);
        String organizer = "rotating-" + System.nanoTime();
        admin(first, "/api/v1/organizers", "{\"slug\":\"" + organizer + "\",\"name\":\"Rotating\"}");
        String created = admin(first, "/api/v1/organizers/" + organizer + "/tokens",
                "{\"name\":\"admin\",\"scope\":\"admin\"}");
        String token = first(Pattern.compile("\"token\":\"([^\"]+)\""), created);
        long id = id(created);
        for (Service replica : replicas) {
            send(replica, "GET", "/api/v1/events", null, token, 200);
        }
        long revoked = System.nanoTime();
        send(first, "DELETE", "/api/v1/organizers/" + organizer + "/tokens/" + id, null, Service.ADMIN, 204);
        send(first, "GET", "/api/v1/events", null, token, 401);
        long refusedAfterMillis = -1;
        while (System.nanoTime() - revoked < Duration.ofSeconds(10).toNanos()) {
            if (status(second, "/api/v1/events", token) == 401) {
                refusedAfterMillis = (System.nanoTime() - revoked) / 1_000_000;
                break;
            }
            Thread.sleep(50); // polling the other replica, as a client with the revoked token keeps trying
        }
        boolean held = refusedAfterMillis >= 0 && refusedAfterMillis <= 2_000;
        return "| (i) a token revoked on one of two replicas | the other refused it after " + refusedAfterMillis
                + " ms | | | " + refusedAfterMillis + " ms | " + (held ? "PASS" : "FAIL") + " |";
    }

    /** The status of a GET, its wait bounded: a replica that lost its database may hold the request. */
    int status(Service replica, String path, String token) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(replica.base + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private String send(Service replica, String method, String path, String json, String token, int expected) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(replica.base + path))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .method(method, json == null
                            ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(json));
            if (method.equals("PATCH")) {
                request.header("If-Match", "\"0\"");
            }
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != expected) {
                throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": "
                        + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String row(String fault, Shoppers shoppers, Sale sale, String timing, boolean clientsOk)
            throws Exception {
        String invariants = Invariants.check(database, sale.id,
                shoppers.answeredOrders.stream().map(Shoppers.Bought::orderCode).toList());
        boolean pass = clientsOk && invariants.equals("all hold");
        return "| " + fault + " | " + shoppers.statuses() + (shoppers.unresolved.sum() > 0
                ? "; unresolved " + shoppers.unresolved.sum()
                : "") + " | " + invariants + " | " + timing + " | "
                + shoppers.longestResolutionMillis.get() + " ms | " + (pass ? "pass" : "FAIL") + " |";
    }

    List<Service> replicas(Map<String, String> first, Map<String, String> second) throws Exception {
        List<Service> replicas = new ArrayList<>();
        for (Map<String, String> env : List.of(first, second)) {
            Map<String, String> all = new HashMap<>(Map.of("QUARKUS_LOG_LEVEL", "INFO"));
            all.putAll(env);
            Service replica = Service.start("faults-replica-" + replicaCount++, database.url(), database.username(),
                    database.password(), all);
            synchronized (this) {
                started.add(replica);
            }
            replicas.add(replica);
        }
        return replicas;
    }

    /** The replicas started for a fault so far: killed, however it ends. */
    synchronized void started(Service replica) {
        started.add(replica);
    }

    private void stopReplicas() throws Exception {
        killReplicas();
        database.stopBouncer();
    }

    synchronized void killReplicas() {
        for (Service replica : started) {
            try {
                replica.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        started.clear();
    }

    /** An event on sale: a ticket in a quota of 3,000, 60 seats, and a voucher for 20 uses. */
    record Sale(String slug, long id, long item, long seated) {

        Shoppers shoppers(List<Service> replicas) {
            return new Shoppers(replicas, slug, random -> switch (random % 4) {
                case 0, 1 -> "{\"item_id\":" + item + "}";
                case 2 -> "{\"item_id\":" + seated + ",\"seat_guid\":\"s" + (random % 60) + "\"}";
                default -> "{\"item_id\":" + item + ",\"voucher_code\":\"FAULT\"}";
            });
        }

        List<String> orderCodes(Database database) throws Exception {
            List<String> codes = new ArrayList<>();
            try (Connection sql = DriverManager.getConnection(database.url(), database.username(),
                    database.password());
                    Statement statement = sql.createStatement();
                    var rows = statement.executeQuery("SELECT code FROM orders WHERE event_id = " + id)) {
                while (rows.next()) {
                    codes.add(rows.getString(1));
                }
            }
            return codes;
        }
    }

    Sale sale(Service replica) throws Exception {
        String slug = "fault-" + System.nanoTime();
        long id = id(admin(replica, "/api/v1/events",
                "{\"slug\":\"" + slug + "\",\"name\":\"Fault\",\"currency\":\"EUR\"}"));
        long item = id(
                admin(replica, "/api/v1/events/" + slug + "/items", "{\"name\":\"Ticket\",\"price\":\"10.00\"}"));
        admin(replica, "/api/v1/events/" + slug + "/quotas",
                "{\"name\":\"Hall\",\"size\":3000,\"items\":[" + item + "]}");
        long seated = id(admin(replica, "/api/v1/events/" + slug + "/items",
                "{\"name\":\"Seat\",\"price\":\"20.00\",\"requires_seat\":true}"));
        StringJoiner seats = new StringJoiner(",", "{\"seats\":[", "]}");
        for (int i = 0; i < 60; i++) {
            seats.add("{\"guid\":\"s" + i + "\",\"name\":\"Seat " + i + "\",\"item_id\":" + seated + "}");
        }
        admin(replica, "/api/v1/events/" + slug + "/seats", seats.toString());
        admin(replica, "/api/v1/events/" + slug + "/vouchers",
                "{\"code\":\"FAULT\",\"max_usages\":20,\"item_id\":" + item + "}");
        return new Sale(slug, id, item, seated);
    }

    private String admin(Service replica, String path, String json) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(replica.base + path))
                .header("Authorization", "Bearer " + Service.ADMIN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private int get(String url) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                    .header("Authorization", "Bearer " + Service.ADMIN).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return 0;
        }
    }

    private static void buyOne(Shoppers shoppers, int replica, Sale sale) {
        String cart = cartId(shoppers.post(replica, "/api/v1/events/" + sale.slug + "/carts", null).body());
        shoppers.post(replica, "/api/v1/events/" + sale.slug + "/carts/" + cart + "/positions",
                "{\"positions\":[{\"item_id\":" + sale.item + "}]}");
    }

    private static long timed(Runnable request) {
        long started = System.nanoTime();
        request.run();
        return (System.nanoTime() - started) / 1_000_000;
    }

    private static long id(String body) {
        return Long.parseLong(first(ID, body));
    }

    private static String cartId(String body) {
        return first(CART, body);
    }

    private static String first(Pattern pattern, String body) {
        Matcher matcher = pattern.matcher(body);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + pattern + " in " + body);
        }
        return matcher.group(1);
    }
}

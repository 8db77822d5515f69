package io.ticketing.reservations.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ticketing.reservations.cart.CartRows;
import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.QuotaCounter;

/**
 * What PostgreSQL itself can do per reservation, measured with pgbench at the same concurrency on the same
 * database: the least any correct design must do ({@link #MINIMAL}), and the statements this service sends
 * for one add to cart ({@link #SERVICE}). Without pgbench on the PATH the columns stay empty.
 */
final class Ceiling {

    /** The hot quota of a scenario: its event, quota and item, and the event's slug. */
    record Target(long eventId, long quotaId, long itemId) {
    }

    private static final int CARTS = 200;

    /**
     * Where the minimal scripts write: the service's tables without its triggers, counters and foreign keys,
     * so the ceiling is what PostgreSQL does for the bare minimum.
     */
    private static final String MINIMAL_TABLES = """
            CREATE TABLE IF NOT EXISTS bench_carts (LIKE carts INCLUDING ALL);
            CREATE TABLE IF NOT EXISTS bench_holds (LIKE cart_positions INCLUDING ALL);
            CREATE TABLE IF NOT EXISTS bench_orders (LIKE orders INCLUDING ALL);
            CREATE TABLE IF NOT EXISTS bench_order_positions (LIKE order_positions INCLUDING ALL)""";

    /** One reservation: take the sorted advisory locks, read the quota row, insert the hold, commit. */
    private static final String MINIMAL = """
            \\set cart random(1, %6$d)
            BEGIN;
            SELECT acquire_advisory_locks(ARRAY[%1$d, %2$d]::bigint[], ARRAY[true, false], 3000);
            SELECT size FROM quotas WHERE id = %3$d;
            INSERT INTO bench_holds (cart_id, item_id, price, expires) VALUES ('%5$s-' || :cart, %4$d, 10, now() + interval '30 minutes');
            COMMIT;
            """;

    /**
     * One purchase: create the cart; the reservation above; then the order, its position and the cart's removal
     * in one transaction (a valid hold is carried over without a lock).
     */
    private static final String MINIMAL_PURCHASE = """
            INSERT INTO bench_carts (id, event_id, expires) VALUES (md5(random()::text), %8$d, now() + interval '30 minutes') RETURNING id AS cart \\gset
            BEGIN;
            SELECT acquire_advisory_locks(ARRAY[%1$d, %2$d]::bigint[], ARRAY[true, false], 3000);
            SELECT size FROM quotas WHERE id = %3$d;
            INSERT INTO bench_holds (cart_id, item_id, price, expires) VALUES (:cart, %4$d, 10, now() + interval '30 minutes');
            COMMIT;
            BEGIN;
            INSERT INTO bench_orders (event_id, code, email, status, expires) VALUES (%8$d, md5(random()::text), 'buyer@example.com', 'pending', now() + interval '14 days') RETURNING id AS sold \\gset
            INSERT INTO bench_order_positions (order_id, item_id, price) SELECT :sold, item_id, price FROM bench_holds WHERE cart_id = :cart;
            DELETE FROM bench_holds WHERE cart_id = :cart;
            DELETE FROM bench_carts WHERE id = :cart;
            COMMIT;
            """;

    /**
     * The statements of one add to cart as the service sends them, in its three round trips (a pipeline each, as
     * the JDBC driver sends them): the cart locked with its new deadline, its positions, the items and the quotas
     * they are in; the locks, the count and the insert; the commit. The event comes from the service's cache.
     */
    private static final String SERVICE = """
            \\set cart random(1, %6$d)
            \\startpipeline
            BEGIN;
            %11$s;
            %7$s;
            %13$s;
            %12$s;
            \\endpipeline
            \\startpipeline
            SELECT acquire_advisory_locks(ARRAY[%1$d, %2$d]::bigint[], ARRAY[true, false], 3000);
            %9$s;
            %10$s;
            \\endpipeline
            COMMIT;
            """;

    private final String url;
    private final String user;
    private final String password;
    private final Duration duration;
    private final boolean available;

    Ceiling(String url, String user, String password, Duration duration) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.duration = duration;
        this.available = pgbenchAvailable();
    }

    /** Transactions per second of the minimal reservation, or null without pgbench. */
    Double minimal(Target target, int clients) throws Exception {
        return run(MINIMAL, target, clients);
    }

    /** Minimal purchases (cart, reservation, order) per second, or null without pgbench. */
    Double minimalPurchase(Target target, int clients) throws Exception {
        return run(MINIMAL_PURCHASE, target, clients);
    }

    /**
     * Transactions per second of the service's own statements for one add, or null without pgbench or when the
     * measured build's schema is not the one these statements were written for (an older build in an A/B run).
     */
    Double service(Target target, int clients) throws Exception {
        try {
            return run(SERVICE, target, clients);
        } catch (PgbenchFailed e) {
            System.out.println("pgb svc skipped: this build's schema does not take today's statements");
            return null;
        }
    }

    private Double run(String template, Target target, int clients) throws Exception {
        if (!available) {
            return null;
        }
        String prefix = "pgbench-" + System.nanoTime();
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement tables = connection.createStatement();
                PreparedStatement insert = connection
                        .prepareStatement("INSERT INTO carts (id, event_id, expires) VALUES (?, ?, now())")) {
            tables.execute(MINIMAL_TABLES);
            for (int i = 1; i <= CARTS; i++) {
                insert.setString(1, prefix + "-" + i);
                insert.setLong(2, target.eventId());
                insert.addBatch();
            }
            insert.executeBatch();
        }
        Path script = Files.createTempFile("bench", ".sql");
        String items = "ARRAY[" + target.itemId() + "]::bigint[]";
        String count = QuotaCounter.COUNT_OF_ITEMS_ON_DATES.replace(":items", items)
                .replace(":dates", "'{}'::bigint[]").replace(":excluded", "'{}'::bigint[]");
        String insert = CartRows.INSERT_ALL.replace(":cart", "'" + prefix + "-' || :cart").replace(":items", items)
                .replace(":seats", "ARRAY[NULL]::bigint[]").replace(":vouchers", "ARRAY[NULL]::bigint[]")
                .replace(":dates", "ARRAY[NULL]::bigint[]").replace(":guids", "ARRAY[NULL]::text[]")
                .replace(":expires", "now() + interval '30 minutes'");
        String lockCart = CartRows.LOCK_EXTENDING.replace(":expires", "now() + interval '30 minutes'")
                .replace(":id", "'" + prefix + "-' || :cart").replace(":event", Long.toString(target.eventId()));
        String memberships = QuotaCounter.MEMBERSHIPS_ON_DATES.replace(":items", items)
                .replace(":dates", "'{}'::bigint[]");
        String positions = CartRows.OF_CART.replace(":cart", "'" + prefix + "-' || :cart");
        String itemRows = ItemForSale.SELECT.replace(":ids", items).replace(":event",
                Long.toString(target.eventId()));
        Files.writeString(script, template.formatted((1L << 56) | target.eventId(), (2L << 56) | target.quotaId(),
                target.quotaId(), target.itemId(), prefix, CARTS, positions, target.eventId(), count, insert,
                lockCart, memberships, itemRows));
        Matcher address = Pattern.compile("jdbc:postgresql://([^:/]+):(\\d+)/([^?]+)").matcher(url);
        if (!address.find()) {
            throw new IllegalStateException("cannot read host, port and database from " + url);
        }
        ProcessBuilder builder = new ProcessBuilder("pgbench", "-n", "-M", "prepared", "-c", Integer.toString(clients),
                "-j", Integer.toString(Math.min(clients, 4)), "-T", Long.toString(duration.toSeconds()), "-f",
                script.toString(), "-h", address.group(1), "-p", address.group(2), "-U", user, address.group(3))
                .redirectErrorStream(true);
        builder.environment().put("PGPASSWORD", password == null ? "" : password);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        Files.deleteIfExists(script);
        Matcher tps = Pattern.compile("tps = ([0-9.]+)").matcher(output);
        if (!tps.find()) {
            throw new PgbenchFailed(output);
        }
        return Double.parseDouble(tps.group(1));
    }

    private static final class PgbenchFailed extends IllegalStateException {
        PgbenchFailed(String output) {
            super("pgbench failed:\n" + output);
        }
    }

    private static boolean pgbenchAvailable() {
        try {
            return new ProcessBuilder("pgbench", "--version").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}

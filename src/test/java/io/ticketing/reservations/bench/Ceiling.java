package io.ticketing.reservations.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What PostgreSQL itself can do per reservation, measured with pgbench at the same concurrency on the same
 * database: the least any correct design must do ({@link #MINIMAL}), and the statements this service sends
 * for one add to cart ({@link #SERVICE}). Without pgbench on the PATH the columns stay empty.
 */
final class Ceiling {

    /** The hot quota of a scenario: its event, quota and item, and the event's slug. */
    record Target(long eventId, long quotaId, long itemId, String slug) {
    }

    private static final int CARTS = 200;

    /** Take the sorted advisory locks, read the quota row, insert the hold, commit. */
    private static final String MINIMAL = """
            \\set cart random(1, %6$d)
            BEGIN;
            SELECT acquire_advisory_locks(ARRAY[%1$d, %2$d]::bigint[], ARRAY[true, false], 3000);
            SELECT size FROM quotas WHERE id = %3$d;
            INSERT INTO cart_positions (cart_id, item_id, price, expires) VALUES ('%5$s-' || :cart, %4$d, 10, now() + interval '30 minutes');
            COMMIT;
            """;

    /** The statements of one add to cart, as the service sends them (event lookup, cart row lock, ...). */
    private static final String SERVICE = """
            \\set cart random(1, %6$d)
            SELECT id, cart_ttl_seconds, currency, name, payment_term_seconds, slug, version, created_at FROM events WHERE slug = '%7$s';
            BEGIN;
            SELECT id, created_at, event_id, expires FROM carts WHERE id = '%5$s-' || :cart AND event_id = %8$d FOR UPDATE;
            SELECT id, active, event_id, name, price, requires_seat, version FROM items WHERE event_id = %8$d AND id IN (%4$d);
            SELECT qi.item_id, q.id, q.name, q.size FROM quota_items qi JOIN quotas q ON q.id = qi.quota_id WHERE qi.item_id = ANY(ARRAY[%4$d]::bigint[]) ORDER BY q.id;
            SELECT acquire_advisory_locks(ARRAY[%1$d, %2$d]::bigint[], ARRAY[true, false], 3000);
            SELECT qi.item_id, q.id, q.name, q.size FROM quota_items qi JOIN quotas q ON q.id = qi.quota_id WHERE qi.item_id = ANY(ARRAY[%4$d]::bigint[]) ORDER BY q.id;
            WITH quota_item AS (SELECT item_id FROM quota_items WHERE quota_id = %3$d) SELECT (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id WHERE o.status = 'paid' AND p.item_id IN (SELECT item_id FROM quota_item)), (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id WHERE o.status = 'pending' AND p.item_id IN (SELECT item_id FROM quota_item)), (SELECT count(*) FROM cart_positions c LEFT JOIN vouchers v ON v.id = c.voucher_id WHERE c.item_id IN (SELECT item_id FROM quota_item) AND c.expires >= now() AND NOT coalesce(v.block_quota, false) AND c.id <> ALL('{}'::bigint[])), (SELECT coalesce(sum(greatest(v.max_usages - v.redeemed, 0)), 0) FROM vouchers v WHERE v.block_quota AND (v.valid_until IS NULL OR v.valid_until >= now()) AND (v.quota_id = %3$d OR v.item_id IN (SELECT item_id FROM quota_item)));
            INSERT INTO cart_positions (cart_id, expires, item_id, price, seat_id, voucher_id) VALUES ('%5$s-' || :cart, now() + interval '30 minutes', %4$d, 10, NULL, NULL) RETURNING id;
            UPDATE carts SET event_id = %8$d, expires = now() + interval '30 minutes' WHERE id = '%5$s-' || :cart;
            COMMIT;
            SELECT id, cart_id, expires, item_id, price, seat_id, voucher_id FROM cart_positions WHERE cart_id = '%5$s-' || :cart ORDER BY id;
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

    /** Transactions per second of the service's own statements for one add, or null without pgbench. */
    Double service(Target target, int clients) throws Exception {
        return run(SERVICE, target, clients);
    }

    private Double run(String template, Target target, int clients) throws Exception {
        if (!available) {
            return null;
        }
        String prefix = "pgbench-" + System.nanoTime();
        try (Connection connection = DriverManager.getConnection(url, user, password);
                PreparedStatement insert = connection
                        .prepareStatement("INSERT INTO carts (id, event_id, expires) VALUES (?, ?, now())")) {
            for (int i = 1; i <= CARTS; i++) {
                insert.setString(1, prefix + "-" + i);
                insert.setLong(2, target.eventId());
                insert.addBatch();
            }
            insert.executeBatch();
        }
        Path script = Files.createTempFile("bench", ".sql");
        Files.writeString(script, template.formatted((1L << 56) | target.eventId(), (2L << 56) | target.quotaId(),
                target.quotaId(), target.itemId(), prefix, CARTS, target.slug(), target.eventId()));
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
            throw new IllegalStateException("pgbench failed:\n" + output);
        }
        return Double.parseDouble(tps.group(1));
    }

    private static boolean pgbenchAvailable() {
        try {
            return new ProcessBuilder("pgbench", "--version").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}

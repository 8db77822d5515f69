package io.ticketing.reservations.tasks;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.ticketing.reservations.jdbc.Jdbc;

/**
 * Publishes what waits for a human or a receiver: tasks that failed for good, and webhooks not yet delivered with
 * the age of the oldest (the alerts in k8s/ watch them). Counted once a sweep interval rather than on each
 * scrape, so that a slow database never slows the metrics endpoint. Every replica that sweeps publishes the same
 * numbers; one that does not (TASKS_ENABLED=false) publishes zeros, so the alerts take the maximum.
 */
@Startup
@ApplicationScoped
public class Backlog implements Sweep {

    private static final String COUNT = """
            SELECT (SELECT count(*) FROM tasks WHERE status = 'failed'),
                   (SELECT count(*) FROM webhook_messages WHERE delivered_at IS NULL),
                   (SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::bigint
                      FROM webhook_messages WHERE delivered_at IS NULL)""";

    private final Jdbc jdbc;
    private final AtomicLong failedTasks = new AtomicLong();
    private final AtomicLong undeliveredWebhooks = new AtomicLong();
    private final AtomicLong oldestUndeliveredSeconds = new AtomicLong();

    Backlog(Jdbc jdbc, MeterRegistry meters) {
        this.jdbc = jdbc;
        Gauge.builder("inventory.tasks.failed", failedTasks, AtomicLong::get)
                .description("Tasks that failed on their last attempt and wait for a human").register(meters);
        Gauge.builder("inventory.webhooks.undelivered", undeliveredWebhooks, AtomicLong::get)
                .description("Webhook messages not yet delivered").register(meters);
        Gauge.builder("inventory.webhooks.oldest.undelivered", oldestUndeliveredSeconds, AtomicLong::get)
                .baseUnit("seconds").description("Age of the oldest webhook message not yet delivered")
                .register(meters);
    }

    @Override
    public int sweep() {
        jdbc.statement(COUNT).list(row -> {
            failedTasks.set(row.getLong(1));
            undeliveredWebhooks.set(row.getLong(2));
            oldestUndeliveredSeconds.set(row.getLong(3));
            return null;
        });
        return 0;
    }
}

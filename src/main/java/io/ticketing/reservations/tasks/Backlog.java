package io.ticketing.reservations.tasks;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.Startup;

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

    private final EntityManager entityManager;
    private final AtomicLong failedTasks = new AtomicLong();
    private final AtomicLong undeliveredWebhooks = new AtomicLong();
    private final AtomicLong oldestUndeliveredSeconds = new AtomicLong();

    Backlog(EntityManager entityManager, MeterRegistry meters) {
        this.entityManager = entityManager;
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
        Object[] row = QuarkusTransaction.requiringNew()
                .call(() -> (Object[]) entityManager.createNativeQuery(COUNT).getSingleResult());
        failedTasks.set(((Number) row[0]).longValue());
        undeliveredWebhooks.set(((Number) row[1]).longValue());
        oldestUndeliveredSeconds.set(((Number) row[2]).longValue());
        return 0;
    }
}

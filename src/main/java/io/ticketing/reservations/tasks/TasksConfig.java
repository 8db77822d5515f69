package io.ticketing.reservations.tasks;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The task queue's workers and the periodic sweeps ({@code TASKS_*} environment variables). */
@ConfigMapping(prefix = "tasks")
public interface TasksConfig {

    /** Whether this replica runs workers and sweeps at all. */
    @WithDefault("true")
    boolean enabled();

    /** Worker threads per replica. */
    @WithDefault("2")
    int workers();

    /** Tasks one worker claims in one statement. */
    @WithDefault("10")
    int batchSize();

    /**
     * How long a claimed task is its worker's; past it, the worker is taken for dead. Keep it above any task's
     * run time.
     */
    @WithDefault("60s")
    Duration lease();

    /**
     * Where the task listener's own connection goes ({@code TASKS_LISTEN_URL}); by default the datasource's URL.
     * Behind a pooler in transaction mode (PgBouncer) LISTEN hears nothing: point this at PostgreSQL itself.
     */
    Optional<String> listenUrl();

    /** How often an idle worker looks anyway (NOTIFY wakes it sooner): delayed retries and lost leases. */
    @WithDefault("5s")
    Duration pollInterval();

    /** The first retry's delay; each further one doubles it, up to {@link #backoffMax}, with jitter. */
    @WithDefault("1s")
    Duration backoffBase();

    @WithDefault("1h")
    Duration backoffMax();

    /** How often each replica looks for overdue orders and old carts. */
    @WithDefault("10s")
    Duration sweepInterval();

    /** How long an expired cart is kept (it can still be extended) before clean-up deletes it. */
    @WithDefault("1h")
    Duration cartRetention();
}

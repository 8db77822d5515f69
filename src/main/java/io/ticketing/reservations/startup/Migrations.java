package io.ticketing.reservations.startup;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.jboss.logging.Logger;

import io.quarkus.flyway.FlywayConfigurationCustomizer;
import io.quarkus.runtime.StartupEvent;

/**
 * Migrations run while the previous release sells (a rolling upgrade; docs/operations.md, "Migrations"). Two rules
 * make that safe:
 * <ul>
 * <li>every statement of a migration waits at most {@link #LOCK_WAIT} for a lock, so that the buyers queued behind a
 * migration's lock request wait no longer than that either, well inside their own lock bound. It is set in each
 * migration's own transaction ({@code SET LOCAL}, before it runs), so it holds behind PgBouncer in transaction mode
 * too, and ends with the migration: the pool's connections, which Flyway borrows, keep their own setting;</li>
 * <li>a migration that did not get its locks in time, or was chosen as a deadlock's victim against the running
 * release's transactions, rolls back whole (PostgreSQL's DDL is transactional) and is run again, until it applies or
 * {@code migrations.retry-for} has passed: a start never fails for a lock the sale held a moment too long.</li>
 * </ul>
 * They run first at start, before readiness is probed: a replica takes traffic only on the schema it was built for.
 */
@ApplicationScoped
public class Migrations implements FlywayConfigurationCustomizer {

    private static final Logger LOG = Logger.getLogger(Migrations.class);
    /** The longest a migration's statement waits for a lock (the hot path's own bound is 3 s). */
    public static final String LOCK_WAIT = "SET LOCAL lock_timeout = '1s'";
    /** lock_not_available (a lock wait past LOCK_WAIT) and deadlock_detected: worth another try. */
    private static final Set<String> RETRYABLE = Set.of("55P03", "40P01");
    private static final Duration PAUSE = Duration.ofMillis(250);

    private final Duration retryFor;

    Migrations(@ConfigProperty(name = "migrations.retry-for") Duration retryFor) {
        this.retryFor = retryFor;
    }

    @Override
    public void customize(FluentConfiguration configuration) {
        configuration.callbacks(new BoundedLockWaits());
    }

    /** Before the scheduler's jobs (at {@code PLATFORM_BEFORE}) and everything else that reads the schema. */
    void migrateFirst(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE - 1) StartupEvent start, Flyway flyway)
            throws InterruptedException {
        MigrateResult result = migrate(flyway, retryFor);
        LOG.infof("schema at version %s (%d migrations applied)", result.targetSchemaVersion,
                result.migrationsExecuted);
    }

    /** Runs the pending migrations, again after each lock wait or deadlock that stopped one, for {@code retryFor}. */
    public static MigrateResult migrate(Flyway flyway, Duration retryFor) throws InterruptedException {
        long giveUp = System.nanoTime() + retryFor.toNanos();
        for (int attempt = 1;; attempt++) {
            try {
                return flyway.migrate();
            } catch (RuntimeException failed) {
                String state = sqlState(failed);
                if (!RETRYABLE.contains(state) || System.nanoTime() > giveUp) {
                    throw failed;
                }
                LOG.warnf("migration attempt %d stopped by a lock the running release held (%s); trying again",
                        attempt, state);
                Thread.sleep(PAUSE.toMillis());
            }
        }
    }

    /** {@link #LOCK_WAIT} at the start of each migration's transaction. */
    private static final class BoundedLockWaits implements Callback {

        @Override
        public boolean supports(Event event, Context context) {
            return event == Event.BEFORE_EACH_MIGRATE;
        }

        @Override
        public boolean canHandleInTransaction(Event event, Context context) {
            return true;
        }

        @Override
        public void handle(Event event, Context context) {
            try (Statement statement = context.getConnection().createStatement()) {
                statement.execute(LOCK_WAIT);
            } catch (SQLException e) {
                throw new FlywayException("could not bound the migration's lock waits", e);
            }
        }

        @Override
        public String getCallbackName() {
            return "bounded-lock-waits";
        }
    }

    private static String sqlState(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
        }
        return null;
    }
}

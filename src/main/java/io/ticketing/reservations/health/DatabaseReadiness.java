package io.ticketing.reservations.health;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.ticketing.reservations.jdbc.DirectConnections;

/**
 * Readiness is "the database answers" (contract section 6), and must itself answer within a second under any load and
 * turn DOWN within 2 seconds of losing the database. The datasource's own check borrows a pooled connection, so it
 * waited behind every busy request (up to the pool's 5 s acquisition timeout) and behind a dead database's connect
 * timeout. Here a background probe asks the database every {@link #INTERVAL} on a connection of its own, outside
 * the pool, with 1 s timeouts; the check only reads when the database last answered.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(DatabaseReadiness.class);
    static final Duration INTERVAL = Duration.ofMillis(500);
    /** Connect, login and socket timeouts of the probe, in pgjdbc's unit (seconds). */
    private static final String TIMEOUT_SECONDS = "1";
    /** No answer for this long is DOWN: an interval, a timed-out probe, and margin, under the contract's 2 s. */
    static final Duration STALE_AFTER = Duration.ofMillis(1600);

    private final DirectConnections connections;
    private volatile long lastAnswerNanos = System.nanoTime() - STALE_AFTER.toNanos();
    private volatile String lastError = "not probed yet";
    private ScheduledExecutorService probe;
    private Connection connection;

    DatabaseReadiness(DirectConnections connections) {
        this.connections = connections;
    }

    void start(@Observes StartupEvent startup) {
        probe = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "readiness-probe");
            thread.setDaemon(true);
            return thread;
        });
        probe.scheduleWithFixedDelay(this::ping, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent shutdown) {
        if (probe != null) {
            probe.shutdownNow();
        }
    }

    @Override
    public HealthCheckResponse call() {
        long silentMillis = (System.nanoTime() - lastAnswerNanos) / 1_000_000;
        boolean answering = silentMillis < STALE_AFTER.toMillis();
        var response = HealthCheckResponse.named("database").status(answering).withData("last_answer_ms_ago",
                silentMillis);
        return (answering ? response : response.withData("error", String.valueOf(lastError))).build();
    }

    private void ping() {
        try {
            if (connection == null) {
                connection = connect();
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("SELECT 1");
            }
            lastAnswerNanos = System.nanoTime();
            lastError = null;
        } catch (SQLException | RuntimeException e) {
            if (lastError == null) {
                LOG.warnf("the database stopped answering the readiness probe: %s", e.getMessage());
            }
            lastError = e.getMessage();
            close();
        }
    }

    private Connection connect() throws SQLException {
        return connections.open("readiness-probe", Map.of("connectTimeout", TIMEOUT_SECONDS, "loginTimeout",
                TIMEOUT_SECONDS, "socketTimeout", TIMEOUT_SECONDS));
    }

    private void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // the connection is gone either way; the next probe opens a new one
            }
            connection = null;
        }
    }
}

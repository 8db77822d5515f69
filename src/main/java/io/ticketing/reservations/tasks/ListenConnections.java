package io.ticketing.reservations.tasks;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.DirectConnections;

/**
 * Connections for LISTEN, outside the pool: a listener holds its connection for good, which in the pool took one
 * of the few connections requests share, and a pooler in front of PostgreSQL cannot carry LISTEN at all.
 */
@ApplicationScoped
public class ListenConnections {

    private final Optional<String> listenUrl;
    private final DirectConnections connections;
    private final DataSource pool;

    ListenConnections(TasksConfig config, DirectConnections connections, DataSource pool) {
        this.listenUrl = config.listenUrl();
        this.connections = connections;
        this.pool = pool;
    }

    Connection open() throws SQLException {
        // Without keep-alive a half-open connection (a failed-over primary) would be listened on forever.
        Map<String, String> settings = Map.of("connectTimeout", "5", "tcpKeepAlive", "true");
        return listenUrl.isPresent()
                ? connections.open(listenUrl.get(), "task-listener", settings)
                : connections.open("task-listener", settings);
    }

    /**
     * Sends a NOTIFY on {@code channel} the way enqueues do, from a pooled connection: another session, as a
     * listener must hear it. (Through a pooler in transaction mode, a listener hears its own NOTIFY, sent on the
     * server connection it happens to hold, but nobody else's.)
     */
    void notifyFromThePool(String channel) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("NOTIFY " + channel);
        }
    }
}

package io.ticketing.reservations.tasks;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Connections for LISTEN, outside the pool: a listener holds its connection for good, which in the pool took one
 * of the few connections requests share, and a pooler in front of PostgreSQL cannot carry LISTEN at all.
 */
@ApplicationScoped
public class ListenConnections {

    private final String url;
    private final Optional<String> username;
    private final Optional<String> password;
    private final DataSource pool;

    ListenConnections(TasksConfig config, @ConfigProperty(name = "quarkus.datasource.jdbc.url") String datasourceUrl,
            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> username,
            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password, DataSource pool) {
        this.url = config.listenUrl().orElse(datasourceUrl);
        this.username = username;
        this.password = password;
        this.pool = pool;
    }

    Connection open() throws SQLException {
        Properties properties = new Properties();
        username.ifPresent(user -> properties.setProperty("user", user));
        password.ifPresent(secret -> properties.setProperty("password", secret));
        properties.setProperty("ApplicationName", "task-listener");
        properties.setProperty("connectTimeout", "5");
        // Without it a half-open connection (a failed-over primary) would be listened on forever.
        properties.setProperty("tcpKeepAlive", "true");
        return DriverManager.getConnection(url, properties);
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

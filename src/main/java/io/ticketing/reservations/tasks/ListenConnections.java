package io.ticketing.reservations.tasks;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;

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

    ListenConnections(TasksConfig config, @ConfigProperty(name = "quarkus.datasource.jdbc.url") String datasourceUrl,
            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> username,
            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        this.url = config.listenUrl().orElse(datasourceUrl);
        this.username = username;
        this.password = password;
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
}

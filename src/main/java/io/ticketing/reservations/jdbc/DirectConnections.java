package io.ticketing.reservations.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Connections outside the pool, with the datasource's credentials, for the few that must not wait behind requests
 * or cannot be shared: the readiness probe's and the task listener's.
 */
@ApplicationScoped
public class DirectConnections {

    private final Optional<String> datasourceUrl;
    private final Optional<String> username;
    private final Optional<String> password;

    DirectConnections(@ConfigProperty(name = "quarkus.datasource.jdbc.url") Optional<String> datasourceUrl,
            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> username,
            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        this.datasourceUrl = datasourceUrl;
        this.username = username;
        this.password = password;
    }

    /** A connection to the datasource's URL, named {@code application} in pg_stat_activity, with pgjdbc settings. */
    public Connection open(String application, Map<String, String> settings) throws SQLException {
        return open(datasourceUrl.orElseThrow(() -> new SQLException("no datasource URL")), application, settings);
    }

    /** The same to another URL of the same database (PostgreSQL itself where the datasource is a pooler). */
    public Connection open(String url, String application, Map<String, String> settings) throws SQLException {
        Properties properties = new Properties();
        username.ifPresent(user -> properties.setProperty("user", user));
        password.ifPresent(secret -> properties.setProperty("password", secret));
        properties.setProperty("ApplicationName", application);
        settings.forEach(properties::setProperty);
        return DriverManager.getConnection(url, properties);
    }
}

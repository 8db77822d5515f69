package io.ticketing.reservations.support;

import java.nio.file.Path;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.ticketing.reservations.startup.EmbeddedDatabase;

/**
 * The tests' real PostgreSQL: a throwaway embedded server, or the database that
 * {@code QUARKUS_DATASOURCE_JDBC_URL} names (with its username and password variables), which is then used as is.
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private EmbeddedDatabase database;

    @Override
    public Map<String, String> start() {
        String external = System.getenv("QUARKUS_DATASOURCE_JDBC_URL");
        if (external != null && !external.isBlank()) {
            return Map.of();
        }
        database = EmbeddedDatabase.throwaway(Path.of("target", "test-postgres"));
        return Map.of(
                "quarkus.datasource.jdbc.url", database.jdbcUrl(),
                "quarkus.datasource.username", database.username(),
                "quarkus.datasource.password", database.password());
    }

    @Override
    public void stop() {
        if (database != null) {
            database.close();
        }
    }
}

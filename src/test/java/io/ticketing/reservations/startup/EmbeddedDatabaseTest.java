package io.ticketing.reservations.startup;

import static io.ticketing.reservations.support.LocalResources.deleteRecursively;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.junit.jupiter.api.Test;

class EmbeddedDatabaseTest {

    @Test
    void persistentDatabaseKeepsItsDataAcrossRestarts() throws Exception {
        Path directory = Path.of("target", "embedded-restart-test");
        deleteRecursively(directory);
        try (EmbeddedDatabase database = EmbeddedDatabase.persistent(directory, 0);
                Connection connection = connect(database)) {
            connection.createStatement().execute("CREATE TABLE kept (value integer); INSERT INTO kept VALUES (42)");
        }
        try (EmbeddedDatabase database = EmbeddedDatabase.persistent(directory, 0);
                Connection connection = connect(database);
                ResultSet rows = connection.createStatement().executeQuery("SELECT value FROM kept")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(42);
        }
    }

    private static Connection connect(EmbeddedDatabase database) throws SQLException {
        return DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
    }
}

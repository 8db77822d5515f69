package io.ticketing.reservations.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;

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

    private static void deleteRecursively(Path directory) throws IOException {
        if (Files.exists(directory)) {
            try (Stream<Path> paths = Files.walk(directory)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}

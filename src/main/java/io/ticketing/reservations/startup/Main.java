package io.ticketing.reservations.startup;

import java.nio.file.Path;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Starts the service. Without a datasource URL it either starts an embedded PostgreSQL (only when the
 * local run command asks for one with {@code -Dembedded-postgres.enabled=true}) or refuses to start, so
 * that a production replica can never quietly run on a private database.
 */
@QuarkusMain
public class Main {

    static final String URL_PROPERTY = "quarkus.datasource.jdbc.url";
    static final String URL_VARIABLE = "QUARKUS_DATASOURCE_JDBC_URL";

    public static void main(String... args) {
        // Dev mode calls main again on every live reload; the URL set below marks the database as running.
        if (configured(URL_PROPERTY, URL_VARIABLE) == null) {
            if (!Boolean.parseBoolean(configured("embedded-postgres.enabled", "EMBEDDED_POSTGRES_ENABLED"))) {
                System.err.println(URL_VARIABLE + " is not set: point it at the PostgreSQL database to use"
                        + " (with QUARKUS_DATASOURCE_USERNAME and QUARKUS_DATASOURCE_PASSWORD).");
                System.exit(2);
            }
            startEmbeddedDatabase();
        }
        Quarkus.run(args);
    }

    private static void startEmbeddedDatabase() {
        String directory = configured("embedded-postgres.dir", "EMBEDDED_POSTGRES_DIR");
        String port = configured("embedded-postgres.port", "EMBEDDED_POSTGRES_PORT");
        EmbeddedDatabase database = EmbeddedDatabase.persistent(
                Path.of(directory == null ? "data/postgres" : directory),
                port == null ? 0 : Integer.parseInt(port));
        Runtime.getRuntime().addShutdownHook(new Thread(database::close, "embedded-postgres-stop"));
        System.setProperty(URL_PROPERTY, database.jdbcUrl());
        System.setProperty("quarkus.datasource.username", database.username());
        System.setProperty("quarkus.datasource.password", database.password());
    }

    private static String configured(String property, String variable) {
        String value = System.getProperty(property);
        return value != null && !value.isBlank() ? value : blankToNull(System.getenv(variable));
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}

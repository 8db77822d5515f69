package io.ticketing.reservations.startup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A real PostgreSQL server from zonky's packaged binaries, for the local run command and the test suite.
 * As root, zonky runs initdb and postgres inside a user namespace ({@code unshare -U}).
 */
public final class EmbeddedDatabase implements AutoCloseable {

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /** Keeps its data in {@code directory} across restarts. */
    public static EmbeddedDatabase persistent(Path directory, int port) {
        return start(directory, port, false, true);
    }

    /** Starts from an empty data directory and trades durability for speed: for tests only. */
    public static EmbeddedDatabase throwaway(Path directory) {
        return start(directory, 0, true, false);
    }

    /**
     * Starts from an empty data directory, every commit flushed as a production database flushes it: for a benchmark
     * of what commits cost. (Settings given at start cannot be changed later, not even by ALTER SYSTEM.)
     */
    public static EmbeddedDatabase throwawayFlushingCommits(Path directory) {
        return start(directory, 0, true, true);
    }

    private static EmbeddedDatabase start(Path directory, int port, boolean throwaway, boolean flushCommits) {
        try {
            Path absolute = directory.toAbsolutePath();
            Files.createDirectories(absolute.resolve("binaries"));
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setOverrideWorkingDirectory(absolute.resolve("binaries").toFile())
                    .setDataDirectory(absolute.resolve("data"))
                    .setCleanDataDirectory(throwaway)
                    // The benchmark's highest load runs several replicas' pools against one server.
                    .setServerConfig("max_connections", "300");
            if (port > 0) {
                builder.setPort(port);
            }
            if (throwaway && !flushCommits) {
                builder.setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off");
            } else {
                // zonky turns both off by default; then a crash loses commits the service already answered for.
                builder.setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on");
            }
            return new EmbeddedDatabase(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL in " + directory, e);
        }
    }

    public String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    public String username() {
        return "postgres";
    }

    public String password() {
        return "postgres";
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

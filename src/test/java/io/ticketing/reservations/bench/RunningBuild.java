package io.ticketing.reservations.bench;

import static io.ticketing.reservations.support.LocalResources.deleteRecursively;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ticketing.reservations.startup.EmbeddedDatabase;

/**
 * One build's service, started against a fresh database of its own, with the harness that drives it: for one pass of
 * the scenarios, or, with {@code bench.keep-running}, for every round of a comparison. The database is an embedded
 * PostgreSQL, or one of its own on the server {@code BENCH_JDBC_URL} names.
 */
final class RunningBuild implements AutoCloseable {

    /** How long every commit of the benchmark's database waits, as a synchronous replica in another zone makes it. */
    private static final int COMMIT_DELAY_MS = Integer.getInteger("bench.commit-delay-ms", 0);

    /** {@code jdbc:postgresql://host:port/} (1), the database (2), and the parameters (3). */
    private static final Pattern DATABASE_IN_URL = Pattern.compile("(jdbc:postgresql://[^/]*/)([^?]*)(.*)");

    private final EmbeddedDatabase embedded;
    private final String server;
    private final String url;
    private final String user;
    private final String password;
    private Connection sql;
    private Service service;
    private Bench bench;

    private RunningBuild(EmbeddedDatabase embedded, String server, String url, String user, String password) {
        this.embedded = embedded;
        this.server = server;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /**
     * {@code suffix} tells apart the directories and logs of builds that run at the same time ({@code ""} for one
     * at a time: {@code target/bench-postgres}, {@code target/bench-service.log}).
     */
    static RunningBuild start(Build build, String suffix) throws Exception {
        RunningBuild running = database(suffix);
        try {
            running.sql = DriverManager.getConnection(running.url, running.user, running.password);
            CommitDelay.apply(running.sql, COMMIT_DELAY_MS);
            running.service = Service.start(build.app(), "bench-service" + suffix, running.url, running.user,
                    running.password, build.env());
            running.bench = new Bench(running.service, running.sql,
                    new Ceiling(running.url, running.user, running.password, Bench.DURATION),
                    build.organizerTokens());
            return running;
        } catch (Exception | AssertionError e) {
            running.close();
            throw e;
        }
    }

    private static RunningBuild database(String suffix) throws SQLException, IOException {
        String server = System.getenv("BENCH_JDBC_URL");
        String user = System.getenv().getOrDefault("BENCH_JDBC_USER", "postgres");
        String password = System.getenv().getOrDefault("BENCH_JDBC_PASSWORD", "");
        if (server != null) {
            return new RunningBuild(null, server, createDatabase(server, user, password), user, password);
        }
        Path directory = Path.of("target", "bench-postgres" + suffix);
        // A run killed midway leaves its data behind, on which initdb refuses to start.
        deleteRecursively(directory.resolve("data"));
        // Delayed commits need flushed ones (fsync on), which a database started without cannot turn on later.
        EmbeddedDatabase embedded = COMMIT_DELAY_MS > 0
                ? EmbeddedDatabase.throwawayFlushingCommits(directory)
                : EmbeddedDatabase.throwaway(directory);
        return new RunningBuild(embedded, null, embedded.jdbcUrl(), embedded.username(), embedded.password());
    }

    Service service() {
        return service;
    }

    Bench bench() {
        return bench;
    }

    /**
     * A database of its own on the server {@code BENCH_JDBC_URL} names, for one build: the builds of a comparison
     * have different schemas, and a run's rows must not weigh on the next.
     */
    private static String createDatabase(String url, String user, String password) throws SQLException {
        String name = "bench_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
        try (Connection server = DriverManager.getConnection(url, user, password);
                Statement statement = server.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        }
        Matcher database = DATABASE_IN_URL.matcher(url);
        if (!database.matches()) {
            throw new IllegalArgumentException("BENCH_JDBC_URL names no database: " + url);
        }
        return database.group(1) + name + database.group(3);
    }

    @Override
    public void close() throws Exception {
        try {
            if (service != null) {
                service.terminate();
            }
            if (sql != null) {
                sql.close();
            }
        } finally {
            if (embedded != null) {
                embedded.close();
            } else {
                Matcher database = DATABASE_IN_URL.matcher(url);
                database.matches();
                try (Connection connection = DriverManager.getConnection(server, user, password);
                        Statement statement = connection.createStatement()) {
                    statement.execute("DROP DATABASE IF EXISTS " + database.group(2) + " WITH (FORCE)");
                }
            }
        }
    }
}

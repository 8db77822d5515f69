package io.ticketing.reservations.faults;

import static io.ticketing.reservations.support.LocalResources.deleteRecursively;
import static io.ticketing.reservations.support.LocalResources.freePort;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.ticketing.reservations.startup.EmbeddedDatabase;
import io.ticketing.reservations.support.Eventually;

/**
 * One PostgreSQL server the fault suite can stop the hard ways and start again on the same data and port, a
 * streaming standby of it to promote, and, where PgBouncer is installed, a PgBouncer in transaction mode in front of
 * it.
 */
final class Database implements AutoCloseable {

    enum Stop {
        /** {@code pg_ctl stop -m fast}: SIGINT to the postmaster; sessions are cut, the server shuts down cleanly. */
        FAST("-INT"),
        /** {@code pg_ctl stop -m immediate}: SIGQUIT; no clean shutdown, crash recovery at the next start. */
        IMMEDIATE("-QUIT"),
        /** {@code kill -9} of the postmaster and every backend: the machine is gone, nothing is flushed or said. */
        KILL("-KILL");

        private final String signal;

        Stop(String signal) {
            this.signal = signal;
        }
    }

    private final Path directory;
    private final int port;
    private EmbeddedDatabase server;
    private Process bouncer;
    private int bouncerPort;

    private Database(Path directory, int port) {
        this.directory = directory;
        this.port = port;
        this.server = EmbeddedDatabase.persistent(directory, port);
    }

    static Database start(Path directory) throws IOException {
        deleteRecursively(directory);
        return new Database(directory.toAbsolutePath(), freePort());
    }

    String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    int port() {
        return port;
    }

    String username() {
        return server.username();
    }

    String password() {
        return server.password();
    }

    /** Stops the server the given way, and returns once its postmaster is gone. */
    void stop(Stop how) throws Exception {
        long postmaster = Long.parseLong(Files.readAllLines(directory.resolve("data/postmaster.pid")).get(0).trim());
        List<ProcessHandle> backends = ProcessHandle.of(postmaster).map(p -> p.descendants().toList())
                .orElse(List.of());
        run("kill", how.signal, Long.toString(postmaster));
        if (how == Stop.KILL) {
            backends.forEach(ProcessHandle::destroyForcibly);
        }
        Eventually.within(Duration.ofSeconds(30), "PostgreSQL stopped",
                () -> ProcessHandle.of(postmaster).map(process -> !process.isAlive()).orElse(true));
        try {
            // Releases zonky's lock on the data directory, so that the server can be started on it again.
            server.close();
        } catch (RuntimeException alreadyStopped) {
            // its pg_ctl stop finds no server: that is the point
        }
    }

    /** Starts the server again on its data (after {@link Stop#IMMEDIATE}, with crash recovery). */
    void startAgain() {
        server = EmbeddedDatabase.persistent(directory, port);
    }

    /**
     * A streaming standby of this server on a port of its own, from a copy of the data taken while the server was
     * stopped cleanly (zonky's binaries have no pg_basebackup). Synchronous: the server answers a commit only once the
     * standby has it on disk ({@code synchronous_standby_names}), as CloudNativePG's {@code prod} keeps one replica.
     * Returns once the standby streams (in sync, if asked).
     */
    Database standby(boolean synchronous) throws Exception {
        stop(Stop.FAST);
        Path copy = directory.resolveSibling(directory.getFileName() + "-standby");
        deleteRecursively(copy);
        Path data = directory.resolve("data");
        try (Stream<Path> files = Files.walk(data)) {
            for (Path file : files.toList()) {
                Path target = copy.resolve("data").resolve(data.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else if (!file.getFileName().toString().equals("postmaster.pid")) {
                    Files.copy(file, target);
                }
            }
        }
        Files.setPosixFilePermissions(copy.resolve("data"), PosixFilePermissions.fromString("rwx------"));
        Files.writeString(copy.resolve("data/standby.signal"), "");
        Files.writeString(copy.resolve("data/postgresql.auto.conf"), "primary_conninfo = 'host=127.0.0.1 port=" + port
                + " user=" + username() + " application_name=standby'\n", StandardOpenOption.APPEND);
        startAgain();
        Database standby = new Database(copy, freePort());
        String streaming = "SELECT count(*) FROM pg_stat_replication WHERE application_name = 'standby'"
                + " AND state = 'streaming'";
        Eventually.within(Duration.ofSeconds(30), "the standby streaming", () -> single(url(), streaming) == 1);
        if (synchronous) {
            // Only once it streams: a primary waiting for a standby that never came would hang every commit.
            sql(url(), "ALTER SYSTEM SET synchronous_standby_names = 'standby'", "SELECT pg_reload_conf()");
            Eventually.within(Duration.ofSeconds(30), "the standby in sync",
                    () -> single(url(), streaming + " AND sync_state = 'sync'") == 1);
        }
        return standby;
    }

    /** Back to a server of its own: no commit waits for a standby. */
    void withoutStandby() throws SQLException {
        sql(url(), "ALTER SYSTEM RESET synchronous_standby_names", "SELECT pg_reload_conf()");
    }

    /** Promotes this standby to a primary; returns once it takes writes. */
    void promote() throws Exception {
        sql(url(), "SELECT pg_promote(true, 30)");
    }

    /** Cuts this standby off its primary: it keeps what it received, and receives nothing more. */
    void cutOff() throws Exception {
        sql(url(), "ALTER SYSTEM SET primary_conninfo = ''", "SELECT pg_reload_conf()");
        Eventually.within(Duration.ofSeconds(10), "the standby cut off",
                () -> single(url(), "SELECT count(*) FROM pg_stat_wal_receiver") == 0);
    }

    private void sql(String url, String... statements) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, username(), password());
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private long single(String url, String query) {
        try (Connection connection = DriverManager.getConnection(url, username(), password());
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            return -1;
        }
    }

    /** Whether a PgBouncer can be started here: it is a Debian package, not something the build can fetch. */
    static boolean bouncerInstalled() {
        return Stream.of("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer")
                .anyMatch(path -> new File(path).canExecute());
    }

    /** A PgBouncer in transaction mode in front of the server; the URL the service uses to reach it. */
    String startBouncer() throws Exception {
        // As root, PgBouncer drops to "nobody", which must read its files.
        Path home = Files.createTempDirectory("pgbouncer");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
        bouncerPort = freePort();
        Files.writeString(home.resolve("users.txt"), "\"" + username() + "\" \"" + password() + "\"\n");
        Files.writeString(home.resolve("pgbouncer.ini"), """
                [databases]
                postgres = host=127.0.0.1 port=%d dbname=postgres
                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = %d
                unix_socket_dir =
                auth_type = plain
                auth_file = %s
                pool_mode = transaction
                max_client_conn = 1000
                default_pool_size = 20
                server_login_retry = 1
                """.formatted(port, bouncerPort, home.resolve("users.txt")));
        for (File file : home.toFile().listFiles()) {
            file.setReadable(true, false);
        }
        List<String> command = new ArrayList<>(List.of(bouncerPath()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("-u", "nobody"));
        }
        command.add(home.resolve("pgbouncer.ini").toString());
        bouncer = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(new File("target/faults-pgbouncer.log")).start();
        Eventually.within(Duration.ofSeconds(10), "PgBouncer listening", () -> {
            try (java.net.Socket probe = new java.net.Socket("127.0.0.1", bouncerPort)) {
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
        return "jdbc:postgresql://127.0.0.1:" + bouncerPort + "/postgres?prepareThreshold=0";
    }

    void stopBouncer() throws InterruptedException {
        if (bouncer != null) {
            bouncer.destroy();
            bouncer.waitFor();
            bouncer = null;
        }
    }

    @Override
    public void close() throws Exception {
        stopBouncer();
        server.close();
    }

    private static String bouncerPath() {
        return Stream.of("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer")
                .filter(path -> new File(path).canExecute()).findFirst().orElseThrow();
    }

    private static void run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).inheritIO().start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed");
        }
    }
}

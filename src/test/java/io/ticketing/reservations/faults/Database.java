package io.ticketing.reservations.faults;

import static io.ticketing.reservations.support.LocalResources.deleteRecursively;
import static io.ticketing.reservations.support.LocalResources.freePort;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.ticketing.reservations.startup.EmbeddedDatabase;
import io.ticketing.reservations.support.Eventually;

/**
 * One PostgreSQL server the fault suite can stop the hard ways and start again on the same data and port, and,
 * where PgBouncer is installed, a PgBouncer in transaction mode in front of it.
 */
final class Database implements AutoCloseable {

    enum Stop {
        /** {@code pg_ctl stop -m fast}: SIGINT to the postmaster; sessions are cut, the server shuts down cleanly. */
        FAST("-INT"),
        /** {@code pg_ctl stop -m immediate}: SIGQUIT; no clean shutdown, crash recovery at the next start. */
        IMMEDIATE("-QUIT");

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

    String username() {
        return server.username();
    }

    String password() {
        return server.password();
    }

    /** Stops the server the given way, and returns once its postmaster is gone. */
    void stop(Stop how) throws Exception {
        long postmaster = Long.parseLong(Files.readAllLines(directory.resolve("data/postmaster.pid")).get(0).trim());
        run("kill", how.signal, Long.toString(postmaster));
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

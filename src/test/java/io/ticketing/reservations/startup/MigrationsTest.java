package io.ticketing.reservations.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ticketing.reservations.support.Eventually;

/**
 * A migration applied while the previous release sells (docs/operations.md, "Migrations"): a transaction of that
 * release holds a lock the migration needs (here on {@code allotments}, which V31 alters) for longer than a
 * migration may wait. The migration must not queue buyers behind it for long (each attempt gives up: after 1 s by
 * {@link Migrations#LOCK_WAIT}, set in every migration's own transaction; V31, written before that rule, says 3 s)
 * and must not fail the start: it is tried again until the lock is free, then applies. Its twin, with no time to
 * retry, fails as the start failed before (the check can fail).
 */
class MigrationsTest {

    private EmbeddedDatabase database;

    @BeforeEach
    void previousRelease() {
        database = EmbeddedDatabase.throwaway(Path.of("target", "migrations-postgres"));
        flyway("30").migrate();
    }

    @AfterEach
    void stop() {
        database.close();
    }

    private Flyway flyway(String target, String... locations) {
        FluentConfiguration configuration = Flyway.configure()
                .dataSource(database.jdbcUrl(), database.username(), database.password()).target(target);
        if (locations.length > 0) {
            configuration.locations(locations);
        }
        new Migrations(Duration.ZERO).customize(configuration);
        return configuration.load();
    }

    /** A migration's own transaction waits at most a second; the connection Flyway used keeps its own setting. */
    @Test
    void everyMigrationWaitsAtMostASecondForALock() throws Exception {
        Flyway probing = flyway("latest", "classpath:db/migration", "classpath:db/lock-wait-probe");
        Migrations.migrate(probing, Duration.ZERO);
        try (Connection sql = connect();
                Statement statement = sql.createStatement();
                ResultSet probe = statement.executeQuery("SELECT lock_timeout FROM lock_wait_probe")) {
            probe.next();
            assertThat(probe.getString(1)).isEqualTo("1s");
        }
    }

    @Test
    void aMigrationWaitsBrieflyForALockTheSaleHoldsAndIsRunAgainUntilItApplies() throws Exception {
        try (Connection sale = connect(); Statement holding = sale.createStatement(); Connection watch = connect()) {
            sale.setAutoCommit(false);
            holding.execute("LOCK TABLE allotments IN ACCESS SHARE MODE");
            CompletableFuture<MigrateResult> migrating = CompletableFuture.supplyAsync(() -> {
                try {
                    return Migrations.migrate(flyway("latest"), Duration.ofSeconds(60));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            // Seen waiting for the lock, then not (its wait ran out, and it pauses), then waiting again: retried.
            awaitWaiting(watch, true, "a migration waiting for the sale's lock");
            awaitWaiting(watch, false, "the first attempt giving up its wait");
            awaitWaiting(watch, true, "a second attempt waiting");
            assertThat(migrating).as("still retrying while the sale holds its lock").isNotDone();
            sale.rollback();
            MigrateResult applied = migrating.get(60, TimeUnit.SECONDS);
            assertThat(applied.success).isTrue();
            assertThat(applied.targetSchemaVersion).isEqualTo(flyway("latest").info().current().getVersion()
                    .getVersion());
        }
    }

    @Test
    void withoutRetriesTheSameMigrationFailsTheStart() throws Exception {
        try (Connection sale = connect(); Statement holding = sale.createStatement()) {
            sale.setAutoCommit(false);
            holding.execute("LOCK TABLE allotments IN ACCESS SHARE MODE");
            assertThatThrownBy(() -> Migrations.migrate(flyway("latest"), Duration.ZERO))
                    .hasStackTraceContaining("lock timeout");
            sale.rollback();
        }
        assertThat(flyway("latest").info().current().getVersion().getVersion()).isEqualTo("30");
    }

    private Connection connect() throws Exception {
        return DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
    }

    private static void awaitWaiting(Connection watch, boolean waiting, String what) {
        Eventually.within(Duration.ofSeconds(10), what, () -> waitsForAllotments(watch) == waiting);
    }

    /** Whether a backend waits for a lock on {@code allotments}. */
    private static boolean waitsForAllotments(Connection watch) {
        try (Statement statement = watch.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT count(*) > 0 FROM pg_locks WHERE NOT granted AND relation = 'allotments'::regclass")) {
            rows.next();
            return rows.getBoolean(1);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

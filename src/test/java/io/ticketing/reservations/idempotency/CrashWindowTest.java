package io.ticketing.reservations.idempotency;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Sql;

/**
 * The window between a change and its answer, made certain: a deferred trigger, installed by this test alone, makes
 * the commit of a request whose key starts with {@code pause-} wait for an advisory lock the test holds. There the
 * test cuts the request's connection, or lets the commit finish while the client has gone.
 */
@QuarkusTest
class CrashWindowTest {

    /** Outside the service's key layout (its tags are 0x01 to 0x04): as pg_locks shows it, classid and objid. */
    private static final long PAUSE_KEY = 0x7FL << 56;
    private static final long PAUSE_CLASSID = PAUSE_KEY >>> 32;

    @Inject
    AgroalDataSource pool;

    @Inject
    Sql sql;

    @BeforeEach
    void installPause() {
        sql.update("""
                CREATE OR REPLACE FUNCTION test_pause_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.key LIKE 'pause-%' THEN
                        PERFORM pg_advisory_xact_lock_shared(""" + PAUSE_KEY + """
                );
                    END IF;
                    RETURN NULL;
                END $$""");
        sql.update("DROP TRIGGER IF EXISTS test_pause_at_commit ON idempotency_keys");
        sql.update("""
                CREATE CONSTRAINT TRIGGER test_pause_at_commit AFTER UPDATE ON idempotency_keys
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_pause_at_commit()""");
    }

    @Test
    void aRequestCutOffAtItsCommitTookNoEffectAndItsRetryRunsOnce() throws Exception {
        Sale sale = Sale.open("crash-cut");
        String key = "pause-" + UUID.randomUUID();
        Response cut;
        try (Pause pause = new Pause(pool.getConnection())) {
            CompletableFuture<Response> first = CompletableFuture.supplyAsync(() -> sale.addTwo(key));
            pause.execute("SELECT pg_terminate_backend(" + pausedBackend() + ")");
            cut = first.get(10, TimeUnit.SECONDS);
        }
        cut.then().statusCode(503).contentType("application/problem+json")
                .body("code", equalTo("database_unavailable"));
        assertThat(cut.header("Retry-After")).isNotNull();
        assertThat(sale.held()).as("tickets held after the cut commit").isZero();
        assertThat(sql.number("SELECT count(*) FROM idempotency_keys WHERE key = ?1", key)).isZero();

        String retried = sale.addTwo(key).then().statusCode(201).body("positions", hasSize(2)).extract().asString();
        Response again = sale.addTwo(key);
        again.then().statusCode(201).header("Idempotent-Replayed", "true");
        assertThat(again.asString()).isEqualTo(retried);
        assertThat(sale.held()).isEqualTo(2);
    }

    @Test
    void anAnswerLostAfterTheCommitIsReplayedAndTheKeyIsInUseUntilThen() throws Exception {
        Sale sale = Sale.open("crash-lost");
        String key = "pause-" + UUID.randomUUID();
        CompletableFuture<Response> first;
        try (Pause pause = new Pause(pool.getConnection())) {
            first = CompletableFuture.supplyAsync(() -> sale.addTwo(key));
            pausedBackend();
            sale.addTwo(key).then().statusCode(409).header("Retry-After", "1")
                    .body("code", equalTo("idempotency_key_in_use"));
        }
        // The client of the first request may have given up; what it was sent is what every retry gets.
        String answer = first.get(10, TimeUnit.SECONDS).then().statusCode(201).extract().asString();
        Response retry = sale.addTwo(key);
        retry.then().statusCode(201).header("Idempotent-Replayed", "true");
        assertThat(retry.asString()).isEqualTo(answer);
        assertThat(sale.held()).as("tickets held after one add of two, retried").isEqualTo(2);
    }

    private record Sale(String event, long item, long quota, String cart) {

        static Sale open(String prefix) {
            String event = newEvent(prefix);
            long item = newItem(event, "Ticket", "10");
            long quota = newQuota(event, 10, List.of(item));
            return new Sale(event, item, quota, newCart(event));
        }

        Response addTwo(String key) {
            return storefront().header("Idempotency-Key", key)
                    .body(Map.of("positions", List.of(Map.of("item_id", item, "quantity", 2))))
                    .post("/api/v1/events/{event}/carts/{cart}/positions", event, cart);
        }

        int held() {
            return admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota).then()
                    .statusCode(200).extract().path("cart_positions");
        }
    }

    /** Holds the advisory lock the trigger waits for, on a pooled connection of the test's, until closed. */
    private record Pause(Connection connection) implements AutoCloseable {

        Pause {
            execute(connection, "SELECT pg_advisory_lock(" + PAUSE_KEY + ")");
        }

        void execute(String sql) throws Exception {
            execute(connection, sql);
        }

        private static void execute(Connection connection, String sql) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() throws Exception {
            try (connection) {
                execute("SELECT pg_advisory_unlock_all()");
            }
        }
    }

    /** The backend of the request waiting at the pause: its commit has begun and not ended. */
    private long pausedBackend() throws Exception {
        long[] pid = new long[1];
        try (Connection watcher = pool.getConnection();
                PreparedStatement waiting = watcher.prepareStatement("""
                        SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = ?""")) {
            waiting.setLong(1, PAUSE_CLASSID);
            Eventually.within(Duration.ofSeconds(10), "a request paused in its commit", () -> {
                try (ResultSet rows = waiting.executeQuery()) {
                    if (rows.next()) {
                        pid[0] = rows.getLong(1);
                        return true;
                    }
                    return false;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        return pid[0];
    }
}

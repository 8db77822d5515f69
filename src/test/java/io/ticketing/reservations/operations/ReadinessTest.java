package io.ticketing.reservations.operations;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Management.management;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.startup.EmbeddedDatabase;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.OracleCheck;

/**
 * Readiness follows the database alone, and answers at once: this test runs the app on a database of its own, holds
 * every pooled connection, then stops the database.
 */
@QuarkusTest
@TestProfile(ReadinessTest.OwnDatabase.class)
@OracleCheck.Skipped("stops its database; it sells nothing")
class ReadinessTest {

    @Inject
    AgroalDataSource pool;

    @Test
    void readinessAnswersWithinASecondWithThePoolExhaustedAndTurnsDownWithinTwoSecondsOfLosingTheDatabase()
            throws Exception {
        String event = newEvent("outage"); // also starts the HTTP client, whose own start is not timed
        try (Connection held = pool.getConnection(); Connection alsoHeld = pool.getConnection()) {
            long started = System.nanoTime();
            management().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("readiness with every pooled connection busy")
                    .isLessThan(Duration.ofSeconds(1));
        }

        long lost = System.nanoTime();
        StoppableDatabase.shutDown();
        List<Duration> answers = new ArrayList<>();
        Eventually.within(Duration.ofSeconds(2), "readiness DOWN after the database stopped", () -> {
            long asked = System.nanoTime();
            int status = management().get("/q/health/ready").statusCode();
            answers.add(Duration.ofNanos(System.nanoTime() - asked));
            return status == 503;
        });
        Duration down = Duration.ofNanos(System.nanoTime() - lost);
        management().get("/q/health/ready").then().statusCode(503).body("status", equalTo("DOWN"));
        management().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        long asked = System.nanoTime();
        admin().get("/api/v1/events/{event}", event).then().statusCode(503)
                .header("Retry-After", notNullValue()).body("code", equalTo("database_unavailable"));
        admin().body(Map.of("name", "x", "price", "1.00")).post("/api/v1/events/{event}/items", event).then()
                .statusCode(503).body("code", equalTo("database_unavailable"));
        System.out.printf("outage: two requests answered 503 database_unavailable in %d ms%n",
                (System.nanoTime() - asked) / 1_000_000);
        assertThat(answers).as("each readiness answer").allMatch(answer -> answer.compareTo(Duration.ofSeconds(1)) < 0);
        System.out.printf("readiness: DOWN %d ms after the database stopped; slowest answer %d ms%n", down.toMillis(),
                answers.stream().mapToLong(Duration::toMillis).max().orElse(0));
    }

    public static class OwnDatabase implements QuarkusTestProfile {
        /** Two pooled connections, so that the test can hold them all. */
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.datasource.jdbc.max-size", "2");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(StoppableDatabase.class));
        }
    }

    public static class StoppableDatabase implements QuarkusTestResourceLifecycleManager {

        private static EmbeddedDatabase database;

        @Override
        public Map<String, String> start() {
            database = EmbeddedDatabase.throwaway(Path.of("target", "readiness-postgres"));
            return Map.of(
                    "quarkus.datasource.jdbc.url", database.jdbcUrl(),
                    "quarkus.datasource.username", database.username(),
                    "quarkus.datasource.password", database.password());
        }

        /** Started after the suite's shared database, so this database's URL wins. */
        @Override
        public int order() {
            return 100;
        }

        static synchronized void shutDown() {
            if (database != null) {
                database.close();
                database = null;
            }
        }

        @Override
        public void stop() {
            shutDown();
        }
    }
}

package io.ticketing.reservations.operations;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.startup.EmbeddedDatabase;

/** Readiness follows the database: this test runs the app on a database of its own and stops it. */
@QuarkusTest
@TestProfile(ReadinessTest.OwnDatabase.class)
class ReadinessTest {

    @Test
    void readinessIsDownWhileTheDatabaseIsUnreachableAndLivenessStaysUp() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        StoppableDatabase.shutDown();
        given().get("/q/health/ready").then().statusCode(503).body("status", equalTo("DOWN"));
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    public static class OwnDatabase implements QuarkusTestProfile {
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

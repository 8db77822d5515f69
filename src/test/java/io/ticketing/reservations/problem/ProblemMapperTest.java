package io.ticketing.reservations.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.concurrent.TimeoutException;

import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;

/** Failures that are not bugs must not look like bugs. */
class ProblemMapperTest {

    @Test
    void aConnectionPoolThatStaysBusyIsAnHonest503WithRetryAfter() {
        Exception poolTimeout = new PersistenceException("Unable to acquire JDBC Connection",
                new SQLException("Sorry, acquisition timeout!", new TimeoutException()));
        Response response = new ProblemMapper().unexpected(poolTimeout);
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("1");
        assertThat(((Problem) response.getEntity()).code()).isEqualTo("overloaded");
    }

    @Test
    void aLostDatabaseIsA503DatabaseUnavailableWithRetryAfter() {
        for (String state : new String[]{"08006", "08001", "57P01", "57P03"}) {
            Exception lost = new PersistenceException("could not execute statement",
                    new SQLException("An I/O error occurred while sending to the backend.", state));
            Response response = new ProblemMapper().unexpected(lost);
            assertThat(response.getStatus()).as(state).isEqualTo(503);
            assertThat(response.getHeaderString("Retry-After")).isEqualTo("2");
            assertThat(((Problem) response.getEntity()).code()).isEqualTo("database_unavailable");
        }
    }

    @Test
    void anyOtherFailureIsA500ThatNamesNoClass() {
        Response response = new ProblemMapper().unexpected(new IllegalStateException("secret detail"));
        assertThat(response.getStatus()).isEqualTo(500);
        assertThat(((Problem) response.getEntity()).detail()).doesNotContain("IllegalState").doesNotContain("secret");
    }
}

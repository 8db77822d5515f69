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
    void anyOtherFailureIsA500ThatNamesNoClass() {
        Response response = new ProblemMapper().unexpected(new IllegalStateException("secret detail"));
        assertThat(response.getStatus()).isEqualTo(500);
        assertThat(((Problem) response.getEntity()).detail()).doesNotContain("IllegalState").doesNotContain("secret");
    }
}

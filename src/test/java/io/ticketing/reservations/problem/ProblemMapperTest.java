package io.ticketing.reservations.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.concurrent.TimeoutException;

import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/** Failures that are not bugs must not look like bugs. */
class ProblemMapperTest {

    @Test
    void aConnectionPoolThatStaysBusyIsAnHonest503WithRetryAfter() {
        // Agroal says it both ways: with a TimeoutException as the cause, and, from its queue, with none.
        for (SQLException poolTimeout : new SQLException[]{
                new SQLException("Sorry, acquisition timeout!", new TimeoutException()),
                new SQLException("Sorry, acquisition timeout!")}) {
            Response response = new ProblemMapper()
                    .unexpected(new PersistenceException("Unable to acquire JDBC Connection", poolTimeout));
            assertThat(response.getStatus()).isEqualTo(503);
            assertThat(response.getHeaderString("Retry-After")).isEqualTo("1");
            assertThat(((Problem) response.getEntity()).code()).isEqualTo("overloaded");
        }
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
    void aDeadlockOrSerializationFailureIsA503LockTimeoutWithRetryAfterNeverA500() {
        for (String state : new String[]{"40P01", "40001"}) {
            Exception aborted = new PersistenceException("could not execute statement",
                    new SQLException("ERROR: deadlock detected", state));
            Response response = new ProblemMapper().unexpected(aborted);
            assertThat(response.getStatus()).as(state).isEqualTo(503);
            assertThat(response.getHeaderString("Retry-After")).isEqualTo("1");
            assertThat(((Problem) response.getEntity()).code()).isEqualTo("lock_timeout");
        }
    }

    @Test
    void aCommitThatFailedOnALostConnectionIsDatabaseUnavailable() {
        // How Narayana reports it: the driver's error among the suppressed exceptions, not the causes.
        Exception commit = new IllegalStateException("ARJUNA016053: Could not commit transaction.");
        commit.addSuppressed(new IllegalStateException("XAException",
                new SQLException("FATAL: terminating connection due to administrator command", "57P01")));
        Response response = new ProblemMapper().unexpected(new RuntimeException(commit));
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(((Problem) response.getEntity()).code()).isEqualTo("database_unavailable");
    }

    @Test
    void aUniqueViolationIsTheCheckedConflictOnlyForTheConstraintsBehindTheChecks() {
        Response raced = new ProblemMapper().unexpected(new PersistenceException("could not execute statement",
                uniqueViolation("vouchers_event_code")));
        assertThat(raced.getStatus()).isEqualTo(409);
        assertThat(((Problem) raced.getEntity()).code()).isEqualTo("voucher_code_taken");
        Response other = new ProblemMapper().unexpected(new PersistenceException("could not execute statement",
                uniqueViolation("idempotency_keys_pkey")));
        assertThat(other.getStatus()).isEqualTo(500);
    }

    private static PSQLException uniqueViolation(String constraint) {
        return new PSQLException(new ServerErrorMessage("SERROR\0C23505\0Mduplicate key value\0n" + constraint + "\0"));
    }

    @Test
    void anyOtherFailureIsA500ThatNamesNoClass() {
        Response response = new ProblemMapper().unexpected(new IllegalStateException("secret detail"));
        assertThat(response.getStatus()).isEqualTo(500);
        assertThat(((Problem) response.getEntity()).detail()).doesNotContain("IllegalState").doesNotContain("secret");
    }
}

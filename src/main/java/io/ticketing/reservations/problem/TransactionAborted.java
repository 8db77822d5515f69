package io.ticketing.reservations.problem;

import java.time.Duration;

/**
 * PostgreSQL ended the transaction to break a deadlock (SQLSTATE 40P01) or for a serialization failure (40001):
 * nothing was written, and run again it gets the locks it lost (contract section 3). The service runs such a
 * transaction again itself; a client hears of it only when it kept happening, as it hears of a lock wait past the
 * bound: 503 {@code lock_timeout} with {@code Retry-After}, never 500.
 */
public class TransactionAborted extends ApiException {

    private static final String DEADLOCK_DETECTED = "40P01";
    private static final String SERIALIZATION_FAILURE = "40001";

    public TransactionAborted() {
        super(503, "lock_timeout", "Too busy", "The inventory is in high demand and the database ended this request's"
                + " transaction to let a concurrent one finish, several times in a row. Nothing was changed; retry the"
                + " request.");
        retryAfter(Duration.ofSeconds(1));
    }

    /** Whether {@code failure} is, or was caused by, a deadlock or serialization failure. */
    public static boolean isCause(Throwable failure) {
        return failure instanceof TransactionAborted || ProblemMapper.sqlState(failure, DEADLOCK_DETECTED)
                || ProblemMapper.sqlState(failure, SERIALIZATION_FAILURE);
    }
}

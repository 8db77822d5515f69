package io.ticketing.reservations.locking;

import java.time.Duration;

import io.ticketing.reservations.problem.ApiException;

/** The locks were not all acquired within the bound; the transaction rolls back and nothing is written. */
public class LockTimeoutException extends ApiException {

    public LockTimeoutException(Duration bound, Duration retryAfter) {
        this("The inventory is in high demand and could not be reserved within " + bound.toMillis()
                + " ms. Nothing was changed; retry the request.", retryAfter);
    }

    private LockTimeoutException(String detail, Duration retryAfter) {
        super(503, "lock_timeout", "Too busy", detail);
        retryAfter(retryAfter);
    }
}

package io.ticketing.reservations.locking;

import java.time.Duration;
import java.util.Optional;

import jakarta.enterprise.context.RequestScoped;

/**
 * When an HTTP request's wait for locks must end: {@code lock.timeout} after it reached {@link EventGate}. Unset
 * outside HTTP requests (jobs, tests calling services), where the bound counts from the lock statement.
 */
@RequestScoped
class LockDeadline {

    private boolean httpRequest;
    private boolean gated;
    private long atNanos;

    void httpRequest() {
        httpRequest = true;
    }

    void startsAt(long nanos, Duration bound) {
        gated = true;
        atNanos = nanos + bound.toNanos();
    }

    /** What is left of the bound for the lock statement; empty for an HTTP request that did not pass the gate. */
    Optional<Duration> left(Duration bound) {
        if (!gated) {
            return httpRequest ? Optional.empty() : Optional.of(bound);
        }
        return Optional.of(Duration.ofNanos(Math.min(bound.toNanos(), atNanos - System.nanoTime())));
    }
}

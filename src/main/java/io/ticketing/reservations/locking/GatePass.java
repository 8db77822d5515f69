package io.ticketing.reservations.locking;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.RequestScoped;

/**
 * An HTTP request's passage through {@link EventGate}: when its wait for locks must end ({@code lock.timeout} after
 * it reached the gate), and its event's transaction places. Unset outside HTTP requests (jobs, tests calling
 * services), where the bound counts from the lock statement.
 */
@RequestScoped
class GatePass {

    private boolean httpRequest;
    private boolean entered;
    private long deadlineNanos;
    private EventGate.Places places;
    private CompletableFuture<Void> turn;
    private boolean inTransaction;

    void httpRequest() {
        httpRequest = true;
    }

    /**
     * Passed the gate at {@code arrivedNanos}, with the event's places and its turn for a request place (both null:
     * ungated, its event not yet known or not the caller's).
     */
    void entered(long arrivedNanos, Duration bound, EventGate.Places places, CompletableFuture<Void> turn) {
        this.entered = true;
        this.deadlineNanos = arrivedNanos + bound.toNanos();
        this.places = places;
        this.turn = turn;
    }

    /**
     * The request's work has ended (its request context with it, on the thread that did it): its request place is
     * free again, or it leaves the queue if it never got one.
     */
    @PreDestroy
    void ended() {
        if (turn != null) {
            places.requests().leave(turn);
        }
    }

    /** What is left of the bound for the lock statement; empty for an HTTP request that did not pass the gate. */
    Optional<Duration> left(Duration bound) {
        if (!entered) {
            return httpRequest ? Optional.empty() : Optional.of(bound);
        }
        return Optional.of(Duration.ofNanos(Math.min(bound.toNanos(), deadlineNanos - System.nanoTime())));
    }

    /**
     * Before the request's transaction takes a connection: waits, within what is left of the bound, for one of its
     * event's transaction places; past the bound, {@link LockTimeoutException}.
     */
    void beginTransaction() throws InterruptedException {
        if (places == null) {
            return;
        }
        if (!places.transactions().tryAcquire(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS)) {
            throw places.timedOut();
        }
        inTransaction = true;
    }

    /** The request's transaction has ended and its connection is back in the pool. */
    void endTransaction() {
        if (inTransaction) {
            inTransaction = false;
            places.transactions().release();
        }
    }
}

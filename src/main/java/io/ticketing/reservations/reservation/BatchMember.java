package io.ticketing.reservations.reservation;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.ws.rs.core.Response;

import io.ticketing.reservations.idempotency.KeyedRequest;

/** A request in a {@link BatchQueue}: told either to lead a batch or what was decided for it. */
final class BatchMember<C, R> {

    final C request;
    final KeyedRequest key;
    final Function<R, Response> answer;
    final Function<List<C>, List<ClaimBatches.Outcome<R>>> together;
    final Supplier<R> alone;
    /** When this request's own lock bound runs out ({@link System#nanoTime}), wherever it waits. */
    final long deadlineNanos;
    private boolean leads;
    private ClaimBatches.Decided<R> decided;

    BatchMember(C request, KeyedRequest key, Function<R, Response> answer,
            Function<List<C>, List<ClaimBatches.Outcome<R>>> together, Supplier<R> alone, long deadlineNanos) {
        this.deadlineNanos = deadlineNanos;
        this.request = request;
        this.key = key;
        this.answer = answer;
        this.together = together;
        this.alone = alone;
    }

    synchronized void lead() {
        leads = true;
        notifyAll();
    }

    synchronized void decided(ClaimBatches.Decided<R> decided) {
        this.decided = decided;
        notifyAll();
    }

    synchronized boolean leads() {
        return leads && decided == null;
    }

    synchronized ClaimBatches.Decided<R> decided() {
        return decided;
    }

    /**
     * Waits until told to lead or decided, at most {@code left} (null: however long); false if that ran out
     * first. Once in a batch a request waits for it whatever its own time: the batch's lock wait is bounded.
     */
    synchronized boolean awaitTurn(Duration left) {
        long deadline = left == null ? Long.MAX_VALUE : System.nanoTime() + left.toNanos();
        try {
            while (!leads && decided == null) {
                long nanos = deadline - System.nanoTime();
                if (nanos <= 0) {
                    return false;
                }
                if (left == null) {
                    wait();
                } else {
                    TimeUnit.NANOSECONDS.timedWait(this, nanos);
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

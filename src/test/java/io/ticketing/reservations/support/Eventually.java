package io.ticketing.reservations.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that another process (a worker pool, a receiver) makes true, checking every 20 ms
 * up to a deadline. For state in the database, where no latch can reach; never a fixed sleep.
 */
public final class Eventually {

    private Eventually() {
    }

    public static void within(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }
}

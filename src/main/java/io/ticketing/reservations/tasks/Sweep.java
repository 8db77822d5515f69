package io.ticketing.reservations.tasks;

/**
 * Periodic work that every replica runs, safe side by side: find candidates without locks, then claim each
 * with {@code FOR UPDATE SKIP LOCKED} in its own transaction and check it again (double-checked locking).
 */
public interface Sweep {

    /** Runs one round; returns how many rows it changed. */
    int sweep();
}

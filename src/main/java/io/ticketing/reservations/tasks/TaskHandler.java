package io.ticketing.reservations.tasks;

/**
 * Runs the tasks of one {@link #kind}. A task runs at least once: after a crash it runs again once its lease
 * runs out, so a handler must tolerate a repeat (a webhook receiver drops repeats by {@code webhook-id}).
 * Throwing schedules a retry.
 */
public interface TaskHandler {

    String kind();

    void run(String payload) throws Exception;
}

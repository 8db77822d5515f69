package io.ticketing.reservations.tasks;

import static io.ticketing.reservations.support.Api.newEvent;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Sql;

/** The queue with two independent worker pools on one database: this replica's own, and a second one. */
@QuarkusTest
class TaskQueueTest {

    @Inject
    TaskQueue queue;

    @Inject
    TaskWorkers workers;

    @Inject
    TestHandlers.Recording recording;

    @Inject
    TestHandlers.Flaky flaky;

    @Inject
    TestHandlers.Stuck stuck;

    @Inject
    TestHandlers.Slow slowHandler;

    @Inject
    Sql sql;

    @Inject
    Housekeeping housekeeping;

    private TaskWorkerPool second;

    @BeforeEach
    void startASecondPool() {
        second = workers.newPool("second-pool");
        second.start();
    }

    @AfterEach
    void stopIt() {
        second.stop();
    }

    private void enqueue(String kind, List<String> payloads, int maxAttempts) {
        QuarkusTransaction.requiringNew()
                .run(() -> payloads.forEach(payload -> queue.enqueue(kind, payload, maxAttempts)));
    }

    private String status(String payload) {
        return (String) sql.rows("SELECT status FROM tasks WHERE payload = ?1", payload).get(0);
    }

    @Test
    void twoPoolsRunEveryTaskExactlyOnce() throws InterruptedException {
        String batch = UUID.randomUUID().toString();
        List<String> payloads = IntStream.range(0, 400).mapToObj(i -> batch + "-" + i).toList();
        recording.done = new CountDownLatch(payloads.size());
        recording.workers.clear();
        long started = System.nanoTime();
        enqueue("test.record", payloads, 3);
        assertThat(recording.done.await(60, TimeUnit.SECONDS)).isTrue();
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("queue: %d tasks through two pools in %.2f s = %.0f tasks/s%n", payloads.size(), seconds,
                payloads.size() / seconds);
        assertThat(payloads).allSatisfy(payload -> assertThat(recording.runs.get(payload).get()).isEqualTo(1));
        assertThat(recording.workers).anyMatch(worker -> worker.startsWith("second-pool"))
                .anyMatch(worker -> !worker.startsWith("second-pool"));
        Eventually.within(Duration.ofSeconds(10), "all tasks marked done", () -> sql.number(
                "SELECT count(*) FROM tasks WHERE payload LIKE ?1 AND status = 'done'",
                batch + "-%") == payloads.size());
    }

    @Test
    void aFailingTaskIsRetriedWithBackoffUntilItSucceeds() {
        String payload = "fail:2:" + UUID.randomUUID();
        enqueue("test.flaky", List.of(payload), 5);
        Eventually.within(Duration.ofSeconds(20), "the flaky task succeeded", () -> "done".equals(status(payload)));
        assertThat(sql.number("SELECT attempts FROM tasks WHERE payload = ?1", payload)).isEqualTo(3);
        assertThat(flaky.attempts.get(payload).get()).isEqualTo(3);
    }

    @Test
    void aTaskThatKeepsFailingStaysFailedWithItsLastError() {
        String payload = "fail:99:" + UUID.randomUUID();
        enqueue("test.flaky", List.of(payload), 3);
        Eventually.within(Duration.ofSeconds(20), "the task gave up", () -> "failed".equals(status(payload)));
        assertThat(sql.number("SELECT attempts FROM tasks WHERE payload = ?1", payload)).isEqualTo(3);
        assertThat((String) sql.rows("SELECT last_error FROM tasks WHERE payload = ?1", payload).get(0))
                .contains("planned failure");
    }

    @Test
    void backoffGrowsExponentiallyWithJitterUpToItsCap() {
        for (int attempt = 1; attempt <= 4; attempt++) {
            long full = 50L << (attempt - 1);
            assertThat(queue.backoff(attempt).toMillis()).isBetween(full / 2, full);
        }
        assertThat(queue.backoff(60)).isLessThanOrEqualTo(Duration.ofHours(1));
    }

    @Test
    void aTaskWaitingInASlowBatchIsNeverRunTwice() throws InterruptedException {
        String slow = "slow-" + UUID.randomUUID();
        String waiting = "waiting-" + UUID.randomUUID();
        String last = "last-" + UUID.randomUUID();
        recording.done = new CountDownLatch(2);
        slowHandler.started = new CountDownLatch(1);
        slowHandler.release = new CountDownLatch(1);
        // One batch, in this order: a slow webhook, then two more that wait behind it.
        QuarkusTransaction.requiringNew().run(() -> {
            queue.enqueue("test.slow", slow, 3);
            queue.enqueue("test.record", waiting, 3);
            queue.enqueue("test.record", last, 3);
            sql.update("UPDATE tasks SET run_at = now() - CASE payload WHEN ?1 THEN interval '3 s' WHEN ?2 THEN"
                    + " interval '2 s' ELSE interval '1 s' END WHERE payload IN (?1, ?2, ?3)", slow, waiting, last);
        });
        assertThat(slowHandler.started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(sql.number("SELECT count(DISTINCT locked_by) FROM tasks WHERE payload IN (?1, ?2, ?3)", slow,
                waiting, last)).as("one worker claimed the three together").isEqualTo(1);
        // The slow webhook outlasts the lease the batch was claimed with: another worker takes the waiting task.
        sql.update("UPDATE tasks SET locked_until = now() - interval '1 second' WHERE payload = ?1", waiting);
        Eventually.within(Duration.ofSeconds(20), "another worker ran the waiting task",
                () -> "done".equals(status(waiting)));
        slowHandler.release.countDown();
        assertThat(recording.done.await(20, TimeUnit.SECONDS)).as("the last task ran").isTrue();
        Eventually.within(Duration.ofSeconds(10), "the slow task done", () -> "done".equals(status(slow)));
        assertThat(recording.runs.get(waiting).get()).as("runs of the task that waited").isEqualTo(1);
    }

    @Test
    void aTaskWhoseWorkerDiedRunsAgainOnceItsLeaseRunsOut() throws InterruptedException {
        String payload = "stuck-" + UUID.randomUUID();
        enqueue("test.stuck", List.of(payload), 3);
        assertThat(stuck.firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
        String firstWorker = (String) sql.rows("SELECT locked_by FROM tasks WHERE payload = ?1", payload).get(0);
        // The worker hangs as if its replica had died: let its lease run out instead of waiting a minute.
        sql.update("UPDATE tasks SET locked_until = now() - interval '1 second' WHERE payload = ?1", payload);
        assertThat(stuck.secondRan.await(20, TimeUnit.SECONDS)).isTrue();
        Eventually.within(Duration.ofSeconds(10), "the second run recorded", () -> "done".equals(status(payload)));
        stuck.releaseFirst.countDown();
        assertThat(sql.number("SELECT attempts FROM tasks WHERE payload = ?1", payload)).isEqualTo(2);
        assertThat(sql.rows("SELECT locked_by FROM tasks WHERE payload = ?1 AND status = 'done'", payload))
                .hasSize(1);
        assertThat(firstWorker).isNotNull();
    }

    @Test
    void anIdlePoolIssuesFewQueriesYetStartsANewTaskAtOnce() throws InterruptedException {
        long before = second.claims();
        Duration window = Duration.ofSeconds(6);
        Thread.sleep(window.toMillis()); // measuring a rate over time, not waiting for an event
        long idleClaims = second.claims() - before;
        System.out.printf("queue: an idle pool of 2 workers issued %d claims in %s%n", idleClaims, window);
        assertThat(idleClaims).isLessThanOrEqualTo(4);

        recording.done = new CountDownLatch(1);
        long started = System.nanoTime();
        enqueue("test.record", List.of("wake-" + UUID.randomUUID()), 1);
        assertThat(recording.done.await(2, TimeUnit.SECONDS)).as("a new task starts within a second or so").isTrue();
        System.out.printf("queue: enqueue to start after idling: %.0f ms%n", (System.nanoTime() - started) / 1e6);
    }

    /**
     * A task queued for later (an offer's deadline) runs when it falls due, not at the next poll: the NOTIFY says when,
     * and every pool waits for that. Without it the workers, woken at the enqueue, find nothing due and poll again
     * only after {@code tasks.poll-interval} (5 s).
     */
    @Test
    void aTaskQueuedForLaterRunsWhenItFallsDueNotAtTheNextPoll() throws InterruptedException {
        recording.done = new CountDownLatch(1);
        String payload = "later-" + UUID.randomUUID();
        Duration later = Duration.ofMillis(1500);
        long started = System.nanoTime();
        QuarkusTransaction.requiringNew()
                .run(() -> queue.enqueueOnce("test.record", payload, 1, Instant.now().plus(later)));
        assertThat(recording.done.await(4, TimeUnit.SECONDS)).as("run within a few seconds of falling due").isTrue();
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        System.out.printf("queue: a task due in %d ms ran after %d ms%n", later.toMillis(), took.toMillis());
        assertThat(took).as("not before it fell due").isGreaterThanOrEqualTo(later.minusMillis(100));
    }

    @Test
    void housekeepingDropsOldFinishedTasksExpiredIdempotencyKeysAndSpentQueueTicketsOnly() {
        String old = "old-" + UUID.randomUUID();
        String fresh = "fresh-" + UUID.randomUUID();
        sql.update("INSERT INTO tasks (kind, payload, max_attempts, status, finished_at) VALUES "
                + "('test.record', ?1, 1, 'done', now() - interval '8 days'), ('test.record', ?2, 1, 'done', now())",
                old, fresh);
        sql.update("INSERT INTO idempotency_keys (caller, key, request_hash, status, created_at) VALUES "
                + "('test', ?1, 'h', 201, now() - interval '25 hours'), ('test', ?2, 'h', 201, now())", old, fresh);
        long event = sql.number("SELECT id FROM events WHERE slug = ?1", newEvent("housekeeping"));
        sql.update("INSERT INTO queue_tickets (id, event_id, place, admitted_at) VALUES "
                + "(?1, ?3, 1, now() - interval '2 hours'), (?2, ?3, 2, now() - interval '20 minutes')",
                old + "-ticket", fresh + "-ticket", event);
        assertThat(housekeeping.sweep()).isGreaterThanOrEqualTo(3);
        assertThat(sql.number("SELECT count(*) FROM tasks WHERE payload IN (?1, ?2)", old, fresh)).isEqualTo(1);
        assertThat(sql.number("SELECT count(*) FROM idempotency_keys WHERE key IN (?1, ?2)", old, fresh)).isEqualTo(1);
        assertThat(sql.rows("SELECT id FROM queue_tickets WHERE event_id = ?1", event).stream().map(Object::toString))
                .as("tickets whose 30-minute admission ran out more than an hour ago are gone")
                .containsExactly(fresh + "-ticket");
    }

    @Test
    void aStoppedPoolStopsAtOnceAndClaimsNothingMore() throws InterruptedException {
        TaskWorkerPool third = workers.newPool("third-pool");
        third.start();
        long started = System.nanoTime();
        third.stop();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        long claims = third.claims();
        recording.done = new CountDownLatch(1);
        recording.workers.clear();
        enqueue("test.record", List.of("after-stop-" + UUID.randomUUID()), 1);
        assertThat(recording.done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(third.claims()).isEqualTo(claims);
        assertThat(recording.workers).noneMatch(worker -> worker.startsWith("third-pool"));
    }
}

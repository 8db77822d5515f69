package io.ticketing.reservations.tasks;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.ticketing.reservations.jdbc.Jdbc;

/** The PostgreSQL task queue: enqueue in the caller's transaction, claim, complete, fail. */
@ApplicationScoped
public class TaskQueue {

    /**
     * The channel a NOTIFY at enqueue wakes idle workers on; delivered only if the enqueue commits. Its payload is
     * empty for a task due now, or in how many milliseconds (by the database's clock) a task queued for later is due,
     * so that every replica's workers look again then rather than at their next poll.
     */
    static final String CHANNEL = "tasks";

    /** One round trip: the insert, and the NOTIFY that PostgreSQL delivers only if the caller commits. */
    private static final String ENQUEUE = """
            WITH task AS (INSERT INTO tasks (kind, payload, max_attempts) VALUES (:kind, :payload, :max_attempts)
                          RETURNING id)
            SELECT pg_notify('%s', '') FROM task""".formatted(CHANNEL);

    /**
     * {@link #ENQUEUE} at {@code :run_at}, unless a task of the same kind and payload is ready to run by then: work
     * that a task does in full whenever it runs (offering freed capacity to an event's waiting list) is not queued
     * twice.
     */
    private static final String ENQUEUE_ONCE = """
            WITH task AS (INSERT INTO tasks (kind, payload, max_attempts, run_at)
                          SELECT :kind, :payload, :max_attempts, :run_at
                          WHERE NOT EXISTS (SELECT 1 FROM tasks WHERE kind = :kind AND payload = :payload
                                              AND status = 'ready' AND run_at <= :run_at)
                          RETURNING id, run_at)
            SELECT pg_notify('%s', greatest(0, ceil(extract(epoch FROM run_at - now()) * 1000))::bigint::text)
            FROM task""".formatted(CHANNEL);

    /**
     * One statement claims a batch. The inner SELECT picks due tasks and tasks whose lease ran out (their
     * worker died), skipping rows another worker is claiming this instant; the UPDATE gives them to this
     * worker for one lease. Parameters: worker name, lease in seconds, batch size.
     */
    private static final String CLAIM = """
            UPDATE tasks SET status = 'running', attempts = attempts + 1, locked_by = :worker,
                   locked_until = clock_timestamp() + make_interval(secs => :lease)
            WHERE id IN (SELECT id FROM tasks
                         WHERE (status = 'ready' AND run_at <= now())
                            OR (status = 'running' AND locked_until < now())
                         ORDER BY run_at LIMIT :batch FOR UPDATE SKIP LOCKED)
            RETURNING id, kind, payload, attempts, max_attempts""";

    /**
     * A claimed task's lease, started again as the worker begins it. A batch is claimed at once but run one task
     * after another: without this, a slow task let the later ones' leases run out, another worker claimed them,
     * and both ran them. Only while the task is still this worker's (0 rows: another has it, skip it).
     */
    private static final String BEGIN = """
            UPDATE tasks SET locked_until = clock_timestamp() + make_interval(secs => :lease)
            WHERE id = :id AND status = 'running' AND locked_by = :worker""";

    /** Only while the lease is still this worker's: a worker that overran it has lost the task. */
    private static final String COMPLETE = """
            UPDATE tasks SET status = 'done', finished_at = now(), locked_by = NULL, locked_until = NULL
            WHERE id = :id AND status = 'running' AND locked_by = :worker""";

    private static final String FAIL = """
            UPDATE tasks SET status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'ready' END,
                   run_at = now() + make_interval(secs => :delay), last_error = :error,
                   finished_at = CASE WHEN attempts >= max_attempts THEN now() END,
                   locked_by = NULL, locked_until = NULL
            WHERE id = :id AND status = 'running' AND locked_by = :worker""";

    /** Gives back claimed tasks a stopping worker will not run, as if never claimed. */
    private static final String RELEASE = """
            UPDATE tasks SET status = 'ready', attempts = attempts - 1, locked_by = NULL, locked_until = NULL
            WHERE id = ANY(:ids) AND status = 'running' AND locked_by = :worker""";

    public record Claimed(long id, String kind, String payload, int attempts, int maxAttempts) {
    }

    private final Jdbc jdbc;
    private final TasksConfig config;

    TaskQueue(Jdbc jdbc, TasksConfig config) {
        this.jdbc = jdbc;
        this.config = config;
    }

    /** Adds a task in the caller's transaction: it exists, and wakes a worker, only if the caller commits. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void enqueue(String kind, String payload, int maxAttempts) {
        jdbc.statement(ENQUEUE).set("kind", kind).set("payload", payload).set("max_attempts", maxAttempts)
                .list(row -> null);
    }

    /**
     * {@link #enqueue} to run at {@code runAt}, unless a task of this kind and payload is ready to run by then. Two
     * callers at once may still both enqueue one: such a task must do no harm run twice.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void enqueueOnce(String kind, String payload, int maxAttempts, Instant runAt) {
        jdbc.statement(ENQUEUE_ONCE).set("kind", kind).set("payload", payload).set("max_attempts", maxAttempts)
                .set("run_at", runAt).list(row -> null);
    }

    List<Claimed> claim(String worker) {
        return QuarkusTransaction.requiringNew().call(() -> jdbc.statement(CLAIM).set("worker", worker)
                .set("lease", config.lease().toMillis() / 1000.0).set("batch", config.batchSize())
                .list(row -> new Claimed(row.getLong(1), row.getString(2), row.getString(3), row.getInt(4),
                        row.getInt(5))));
    }

    /** Starts the task's lease anew; false when it was lost meanwhile, and the task must not run here. */
    boolean begin(long id, String worker) {
        return QuarkusTransaction.requiringNew().call(() -> jdbc.statement(BEGIN).set("id", id).set("worker", worker)
                .set("lease", config.lease().toMillis() / 1000.0).update() == 1);
    }

    /** False when the lease was lost meanwhile: another worker has the task now, and its outcome counts. */
    boolean complete(long id, String worker) {
        return QuarkusTransaction.requiringNew()
                .call(() -> jdbc.statement(COMPLETE).set("id", id).set("worker", worker).update() == 1);
    }

    /** Schedules the retry and returns its delay, or empty when the lease was lost meanwhile. */
    Optional<Duration> fail(Claimed task, String worker, String error) {
        Duration delay = backoff(task.attempts());
        boolean ours = QuarkusTransaction.requiringNew().call(() -> jdbc.statement(FAIL).set("id", task.id())
                .set("worker", worker).set("delay", delay.toMillis() / 1000.0).set("error", error).update() == 1);
        return ours ? Optional.of(delay) : Optional.empty();
    }

    void release(List<Claimed> tasks, String worker) {
        QuarkusTransaction.requiringNew().run(() -> jdbc.statement(RELEASE)
                .set("ids", tasks.stream().map(Claimed::id).toArray(Long[]::new)).set("worker", worker).update());
    }

    /** Exponential, capped, with jitter: half the delay is fixed, half random, so retries do not march in step. */
    Duration backoff(int attempts) {
        long base = config.backoffBase().toMillis();
        long capped = Math.min(config.backoffMax().toMillis(), base << Math.min(attempts - 1, 30));
        return Duration.ofMillis(capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1));
    }
}

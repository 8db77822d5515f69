package io.ticketing.reservations.tasks;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * One replica's workers. Each worker claims a batch, runs it, and claims again; when nothing is due it waits
 * until a NOTIFY from an enqueue (seen by one listening connection) or the poll interval, whichever is
 * first. So an idle pool issues one claim per worker per poll interval, and a new task starts at once.
 * Any number of pools, in one process or many, can share the queue: claims skip each other's rows.
 */
public class TaskWorkerPool {

    private static final Logger LOG = Logger.getLogger(TaskWorkerPool.class);
    /** How long a new LISTEN connection may take to hear its own NOTIFY before it is taken to be deaf. */
    private static final Duration ECHO_WAIT = Duration.ofSeconds(2);
    /** How long stopping waits for the workers; a task still running then keeps its lease until it runs out. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final String name;
    private final int workers;
    private final TaskQueue queue;
    private final Map<String, TaskHandler> handlers;
    private final ListenConnections listenConnections;
    private final Duration pollInterval;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong claims = new AtomicLong();
    private final Object signal = new Object();
    private long wakeUps;
    /** When retries and tasks queued for later fall due ({@link System#nanoTime}): the waiting workers look then. */
    private final TreeSet<Long> dueTimes = new TreeSet<>();
    private volatile boolean running;

    public TaskWorkerPool(String name, int workers, TaskQueue queue, Map<String, TaskHandler> handlers,
            ListenConnections listenConnections, Duration pollInterval) {
        this.name = name;
        this.workers = workers;
        this.queue = queue;
        this.handlers = handlers;
        this.listenConnections = listenConnections;
        this.pollInterval = pollInterval;
    }

    public synchronized void start() {
        running = true;
        startThread(name + "-listener", this::listen);
        for (int i = 0; i < workers; i++) {
            String worker = name + "-" + i;
            startThread(worker, () -> work(worker));
        }
    }

    private void startThread(String threadName, Runnable body) {
        Thread thread = new Thread(body, threadName);
        thread.setDaemon(true);
        thread.start();
        threads.add(thread);
    }

    /**
     * Lets each worker finish the task it runs and give back the rest of its batch, and waits for them up to
     * {@link #STOP_WAIT} in all, so that a replica's shutdown stays bounded.
     */
    public synchronized void stop() {
        running = false;
        wakeAll();
        long deadline = System.nanoTime() + STOP_WAIT.toNanos();
        for (Thread thread : threads) {
            try {
                thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        threads.clear();
    }

    /** How many claim statements this pool has issued: what an idle queue costs the database. */
    public long claims() {
        return claims.get();
    }

    private void work(String worker) {
        while (running) {
            long seen = wakeUps();
            long claimedAt = System.nanoTime();
            List<TaskQueue.Claimed> batch;
            try {
                claims.incrementAndGet();
                batch = queue.claim(worker);
            } catch (RuntimeException e) {
                LOG.warnf(e, "%s could not claim tasks", worker);
                batch = List.of();
            }
            if (batch.isEmpty()) {
                awaitWakeUp(seen, claimedAt);
                continue;
            }
            for (int i = 0; i < batch.size(); i++) {
                if (!running) {
                    queue.release(batch.subList(i, batch.size()), worker);
                    return;
                }
                // The first task's lease has just begun; each later one's begins as it starts.
                if (i == 0 || queue.begin(batch.get(i).id(), worker)) {
                    run(batch.get(i), worker);
                }
            }
        }
    }

    private void run(TaskQueue.Claimed task, String worker) {
        TaskHandler handler = handlers.get(task.kind());
        try {
            if (handler == null) {
                throw new IllegalStateException("no handler for tasks of kind '" + task.kind() + "'");
            }
            handler.run(task.payload());
            if (!queue.complete(task.id(), worker)) {
                LOG.warnf("task %d ran past its lease; another worker has it now", task.id());
            }
        } catch (Exception e) {
            LOG.debugf(e, "task %d failed (attempt %d of %d)", task.id(), task.attempts(), task.maxAttempts());
            queue.fail(task, worker, String.valueOf(e)).ifPresentOrElse(this::retryIn,
                    () -> LOG.warnf("task %d failed after its lease ran out; another worker has it now", task.id()));
        }
    }

    /**
     * One connection of its own, outside the pool, LISTENs for enqueues and wakes the workers; if it breaks, or
     * cannot hear a NOTIFY sent from the pool (a pooler in transaction mode hands each statement to another server
     * connection), polling carries on alone, and the log says so.
     */
    private void listen() {
        while (running) {
            try (Connection connection = listenConnections.open();
                    Statement statement = connection.createStatement()) {
                statement.execute("LISTEN " + TaskQueue.CHANNEL);
                listenConnections.notifyFromThePool(TaskQueue.CHANNEL);
                PGConnection notifications = connection.unwrap(PGConnection.class);
                if (!heard(notifications, ECHO_WAIT)) {
                    LOG.warnf(
                            "%s: LISTEN does not hear a NOTIFY sent to it (is a pooler in transaction mode in the way?); "
                                    + "tasks are found by polling every %s instead. Point tasks.listen-url "
                                    + "(TASKS_LISTEN_URL) at PostgreSQL itself.",
                            name, pollInterval);
                    return;
                }
                while (running) {
                    PGNotification[] received = notifications.getNotifications(500);
                    if (received != null && received.length > 0) {
                        for (PGNotification notification : received) {
                            dueIn(notification.getParameter()).ifPresent(this::retryIn);
                        }
                        wakeAll();
                    }
                }
            } catch (Exception e) {
                if (running) {
                    LOG.warnf("%s lost its LISTEN connection (%s); tasks are found by polling every %s until it is "
                            + "back", name, e.getMessage(), pollInterval);
                    synchronized (signal) {
                        waitFor(wakeUps, System.nanoTime() + pollInterval.toNanos());
                    }
                }
            }
        }
    }

    /** When a task queued for later falls due, from a NOTIFY's payload ({@link TaskQueue#CHANNEL}). */
    private static Optional<Duration> dueIn(String payload) {
        try {
            return payload == null || payload.isEmpty()
                    ? Optional.empty()
                    : Optional.of(Long.parseLong(payload)).filter(millis -> millis > 0).map(Duration::ofMillis);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static boolean heard(PGConnection notifications, Duration wait) throws SQLException {
        PGNotification[] received = notifications.getNotifications(Math.toIntExact(wait.toMillis()));
        return received != null && received.length > 0;
    }

    private long wakeUps() {
        synchronized (signal) {
            return wakeUps;
        }
    }

    private void wakeAll() {
        synchronized (signal) {
            wakeUps++;
            signal.notifyAll();
        }
    }

    private void retryIn(Duration delay) {
        synchronized (signal) {
            dueTimes.add(System.nanoTime() + delay.toNanos());
        }
    }

    /**
     * Waits for a wake-up that came after {@code seen}, a retry or a task queued for later falling due, or the poll
     * interval; a wake-up is never lost. What fell due by {@code claimedAt}, the start of a claim that found nothing
     * more, is done with; what falls due later stays for the next wait, even if another wake-up ends this one first.
     */
    private void awaitWakeUp(long seen, long claimedAt) {
        synchronized (signal) {
            dueTimes.headSet(claimedAt, true).clear();
            long deadline = System.nanoTime() + pollInterval.toNanos();
            waitFor(seen, dueTimes.isEmpty() ? deadline : Math.min(deadline, dueTimes.first()));
        }
    }

    /** Holding {@link #signal}: waits for a wake-up that came after {@code seen}, or for {@code deadline}. */
    private void waitFor(long seen, long deadline) {
        while (running && wakeUps == seen) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            try {
                signal.wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}

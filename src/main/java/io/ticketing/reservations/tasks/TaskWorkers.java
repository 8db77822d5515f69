package io.ticketing.reservations.tasks;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.ticketing.reservations.auth.RandomIds;

/** Starts this replica's task workers and sweeps with the application, and stops them with it. */
@ApplicationScoped
public class TaskWorkers {

    private static final Logger LOG = Logger.getLogger(TaskWorkers.class);

    private final TasksConfig config;
    private final TaskQueue queue;
    private final ListenConnections listenConnections;
    private final Map<String, TaskHandler> handlers;
    private final Instance<Sweep> sweeps;
    private TaskWorkerPool pool;
    private ScheduledExecutorService sweeper;

    TaskWorkers(TasksConfig config, TaskQueue queue, ListenConnections listenConnections,
            Instance<TaskHandler> handlers,
            Instance<Sweep> sweeps) {
        this.config = config;
        this.queue = queue;
        this.listenConnections = listenConnections;
        this.handlers = handlers.stream().collect(Collectors.toMap(TaskHandler::kind, Function.identity()));
        this.sweeps = sweeps;
    }

    void start(@Observes StartupEvent startup) {
        if (!config.enabled()) {
            return;
        }
        pool = newPool(replicaName());
        pool.start();
        sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "sweeps");
            thread.setDaemon(true);
            return thread;
        });
        long interval = config.sweepInterval().toMillis();
        for (Sweep sweep : sweeps) {
            sweeper.scheduleWithFixedDelay(() -> runSafely(sweep), interval, interval, TimeUnit.MILLISECONDS);
        }
    }

    void stop(@Observes ShutdownEvent shutdown) {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
        if (pool != null) {
            pool.stop();
        }
    }

    /** A pool of {@code tasks.workers} workers; each replica runs one, and tests start a second beside it. */
    public TaskWorkerPool newPool(String name) {
        return new TaskWorkerPool(name, config.workers(), queue, handlers, listenConnections, config.pollInterval());
    }

    private static void runSafely(Sweep sweep) {
        try {
            sweep.sweep();
        } catch (RuntimeException e) {
            LOG.warnf(e, "%s failed; it runs again at the next interval", sweep.getClass().getSimpleName());
        }
    }

    private static String replicaName() {
        try {
            return InetAddress.getLocalHost().getHostName() + "-" + RandomIds.next().substring(0, 6);
        } catch (UnknownHostException e) {
            return "replica-" + RandomIds.next().substring(0, 6);
        }
    }
}

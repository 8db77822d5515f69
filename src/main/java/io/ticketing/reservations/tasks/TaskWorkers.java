package io.ticketing.reservations.tasks;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.ticketing.reservations.auth.RandomIds;

/**
 * Starts this replica's task workers with the application and stops them with it, and runs the sweeps every
 * {@code tasks.sweep-interval} (a round that is still running when the next is due makes that one skip).
 */
@ApplicationScoped
public class TaskWorkers {

    private static final Logger LOG = Logger.getLogger(TaskWorkers.class);

    private final TasksConfig config;
    private final TaskQueue queue;
    private final ListenConnections listenConnections;
    private final Map<String, TaskHandler> handlers;
    private final Instance<Sweep> sweeps;
    private TaskWorkerPool pool;

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
    }

    @Scheduled(identity = "sweeps", every = "${tasks.sweep-interval}", delayed = "${tasks.sweep-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Disabled.class)
    void sweep() {
        for (Sweep sweep : sweeps) {
            runSafely(sweep);
        }
    }

    /** {@code tasks.enabled=false}: this replica runs no sweeps. */
    @Singleton
    static class Disabled implements Scheduled.SkipPredicate {

        private final TasksConfig config;

        Disabled(TasksConfig config) {
            this.config = config;
        }

        @Override
        public boolean test(ScheduledExecution execution) {
            return !config.enabled();
        }
    }

    void stop(@Observes ShutdownEvent shutdown) {
        if (pool != null) {
            pool.stop();
        }
    }

    /** A pool of {@code tasks.workers} workers; each replica runs one, and tests start a second beside it. */
    public TaskWorkerPool newPool(String name) {
        return new TaskWorkerPool(name, config.workers(), queue, handlers, listenConnections, config.pollInterval());
    }

    /** One failing sweep does not keep the others from their round. */
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

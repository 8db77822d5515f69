package io.ticketing.reservations.locking;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.ticketing.reservations.http.PathParams;
import io.ticketing.reservations.problem.ProblemMapper;
import io.vertx.ext.web.RoutingContext;

/**
 * Keeps the writers of one event from taking what every other request needs. A writer waiting for a lock holds a
 * request thread and a pooled connection for up to {@code lock.timeout}: without this gate the writers of one event
 * whose lock is held (a long admin change, a stuck transaction, another replica's rush) took every connection and
 * thread, and reads and every other event waited behind them. So, per event and replica:
 * <ul>
 * <li>at most {@code lock.requests-per-event} of its requests that may wait for its locks ({@link TakesLocks}) are
 * on request threads; the others wait here, on the event loop, in arrival order;</li>
 * <li>at most {@code lock.writers-per-event} of those hold a connection for a transaction; the others wait for a
 * place before they take one ({@link GatePass#beginTransaction}). Not in arrival order: a thread that can go on
 * at once takes a freed place rather than wake a parked one, which sold 10 % more in the benchmark's purchase.</li>
 * </ul>
 * Both waits count towards the lock bound: a writer hears {@code lock_timeout} at {@code lock.timeout} after it
 * arrived, end to end. A request keeps its place until its work ends, even if its client has hung up meanwhile: its
 * thread waits on all the same. A client that hangs up while its request is queued withdraws it.
 *
 * <p>Places are kept only for events this replica knows (in its event cache: the gate runs before the event is read,
 * on the event loop, which may not wait for the database), so random slugs cost no memory; an unknown event's first
 * writers pass ungated while it is read. A caller whose token does not reach the event passes ungated too, and hears
 * 404 at once, as for an event that does not exist (contract section 11), instead of queueing for the event's places.
 * Places idle for {@value #IDLE_SECONDS} s are dropped.
 */
@ApplicationScoped
class EventGate {

    private static final long IDLE_SECONDS = 60;

    /** One event's places on this replica, and when a request last took one. */
    record Places(Permits requests, Semaphore transactions, AdvisoryLocks locks, AtomicLong lastUsedNanos) {

        LockTimeoutException timedOut() {
            return locks.timedOut();
        }
    }

    private final Map<String, Places> byEvent = new ConcurrentHashMap<>();
    private final LockConfig config;
    private final GatePass pass;
    private final AdvisoryLocks locks;

    private final KnownEvents events;

    EventGate(LockConfig config, GatePass pass, AdvisoryLocks locks, KnownEvents events) {
        this.config = config;
        this.pass = pass;
        this.locks = locks;
        this.events = events;
    }

    /**
     * On the event loop, after Quarkus Security checked the token and role (before any request filter), and before
     * the request takes a request thread.
     */
    @ServerRequestFilter(nonBlocking = true, priority = 110)
    Uni<Response> enter(ResourceInfo resource, RoutingContext routing) {
        pass.httpRequest();
        if (!resource.getResourceMethod().isAnnotationPresent(TakesLocks.class)) {
            return Uni.createFrom().nullItem();
        }
        long arrived = System.nanoTime();
        String slug = PathParams.of("event");
        if (!events.knownAndReachable(slug)) {
            pass.entered(arrived, config.timeout(), null, null);
            return Uni.createFrom().nullItem();
        }
        Places places = placesOf(slug, arrived);
        CompletableFuture<Void> turn = places.requests().enter();
        pass.entered(arrived, config.timeout(), places, turn);
        // A client that hangs up while queued withdraws its request. Once granted, the place is given back when the
        // request's work ends (GatePass#ended), not when its client leaves: the thread waits on in a batch or for the
        // locks all the same. Registered while the request is surely open: a handler added later might never run.
        routing.addEndHandler(ended -> turn.cancel(false));
        if (turn.isDone()) {
            // Granted at once, as most are: no pipeline to build. Nothing can withdraw the turn meanwhile: the end
            // handler runs on this event loop, after this filter.
            return Uni.createFrom().nullItem();
        }
        turn.orTimeout(config.timeout().toNanos(), TimeUnit.NANOSECONDS);
        return Uni.createFrom().completionStage(turn).map(ignored -> (Response) null).onFailure()
                .recoverWithItem(failure -> {
                    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                    if (cause instanceof TimeoutException) {
                        return ProblemMapper.respond(places.timedOut());
                    }
                    if (cause instanceof CancellationException) {
                        return Response.status(Response.Status.SERVICE_UNAVAILABLE).build(); // no one is listening
                    }
                    throw new IllegalStateException("the event gate failed", failure);
                });
    }

    /**
     * The event's places, marked used at {@code arrived} under the map's lock of the slug, which {@link #dropIdle}
     * takes too: places it drops were idle after every mark, so no request holds them.
     */
    private Places placesOf(String slug, long arrived) {
        return byEvent.compute(slug, (event, places) -> {
            Places used = places != null
                    ? places
                    : new Places(new Permits(config.requestsPerEvent()), new Semaphore(config.writersPerEvent()),
                            locks, new AtomicLong());
            used.lastUsedNanos().set(arrived);
            return used;
        });
    }

    /** Drops the places of events no request used for a while, whose places are all free. */
    @Scheduled(identity = "event-gate-idle", every = "60s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void dropIdle() {
        long idleSince = System.nanoTime() - TimeUnit.SECONDS.toNanos(IDLE_SECONDS);
        byEvent.keySet().forEach(slug -> byEvent.computeIfPresent(slug,
                (event, places) -> places.lastUsedNanos().get() < idleSince
                        && places.requests().free() == config.requestsPerEvent()
                        && places.transactions().availablePermits() == config.writersPerEvent() ? null : places));
    }

    /** Whether the event has places on this replica. */
    boolean gates(String event) {
        return byEvent.containsKey(event);
    }

    /** Free request places of the event on this replica: all of them once its requests have ended. */
    int freePlaces(String event) {
        Places places = byEvent.get(event);
        return places == null ? config.requestsPerEvent() : places.requests().free();
    }

    /** Requests of the event queued for a request place on this replica. */
    int queued(String event) {
        Places places = byEvent.get(event);
        return places == null ? 0 : places.requests().queued();
    }

    /** A fair semaphore whose waiters are futures, not threads. */
    static final class Permits {

        private final ArrayDeque<CompletableFuture<Void>> waiting = new ArrayDeque<>();
        private int free;

        Permits(int permits) {
            this.free = permits;
        }

        synchronized CompletableFuture<Void> enter() {
            CompletableFuture<Void> turn = new CompletableFuture<>();
            if (free > 0 && waiting.isEmpty()) {
                free--;
                turn.complete(null);
            } else {
                waiting.add(turn);
            }
            return turn;
        }

        synchronized int free() {
            return free;
        }

        synchronized int queued() {
            return (int) waiting.stream().filter(turn -> !turn.isDone()).count();
        }

        /**
         * Once the work of the request that asked for {@code turn} has ended: gives back its permit if it was
         * granted, or else withdraws it from the queue (a cancelled waiter is skipped like one that timed out).
         */
        void leave(CompletableFuture<Void> turn) {
            if (!turn.cancel(false) && !turn.isCompletedExceptionally()) {
                release();
            }
        }

        /** Hands the permit to the longest waiter still waiting (one that timed out is skipped), or frees it. */
        void release() {
            CompletableFuture<Void> next;
            synchronized (this) {
                do {
                    next = waiting.poll();
                } while (next != null && next.isDone());
                if (next == null) {
                    free++;
                    return;
                }
            }
            if (!next.complete(null)) {
                release();
            }
        }
    }
}

package io.ticketing.reservations.locking;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.smallrye.mutiny.Uni;
import io.ticketing.reservations.problem.ProblemMapper;
import io.vertx.ext.web.RoutingContext;

/**
 * At most {@code lock.writers-per-event} requests of one event that may wait for its locks ({@link TakesLocks}) run
 * at once on this replica; the others wait here, in arrival order, on no thread and no connection. A writer waiting
 * for a lock holds a pooled connection and a request thread for up to {@code lock.timeout}: without this gate the
 * writers of one event whose lock is held (by a long admin change, a stuck transaction, another replica's rush)
 * took every connection, and reads and every other event waited behind them. The wait here counts towards the
 * same bound: a writer hears {@code lock_timeout} at {@code lock.timeout} after it arrived, end to end.
 */
@ApplicationScoped
class EventGate {

    private final Map<String, Permits> byEvent = new ConcurrentHashMap<>();
    private final LockConfig config;
    private final LockDeadline deadline;

    EventGate(LockConfig config, LockDeadline deadline) {
        this.config = config;
        this.deadline = deadline;
    }

    /** On the event loop, after the token check and before the request takes a request thread. */
    @ServerRequestFilter(nonBlocking = true, priority = 110)
    Uni<Response> enter(ContainerRequestContext request, ResourceInfo resource, RoutingContext routing) {
        deadline.httpRequest();
        if (!resource.getResourceMethod().isAnnotationPresent(TakesLocks.class)) {
            return Uni.createFrom().nullItem();
        }
        long arrived = System.nanoTime();
        deadline.startsAt(arrived, config.timeout());
        Permits permits = byEvent.computeIfAbsent(request.getUriInfo().getPathParameters().getFirst("event"),
                event -> new Permits(config.writersPerEvent()));
        CompletableFuture<Void> entered = permits.enter().orTimeout(config.timeout().toNanos(), TimeUnit.NANOSECONDS);
        return Uni.createFrom().completionStage(entered).map(ignored -> {
            routing.addEndHandler(ended -> permits.release());
            return (Response) null;
        }).onFailure().recoverWithItem(failure -> {
            Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
            if (cause instanceof TimeoutException) {
                return ProblemMapper.respond(new LockTimeoutException(config.timeout(), config.retryAfter()));
            }
            throw new IllegalStateException("the event gate failed", failure);
        });
    }

    /** A fair semaphore whose waiters are futures, not threads. */
    private static final class Permits {

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

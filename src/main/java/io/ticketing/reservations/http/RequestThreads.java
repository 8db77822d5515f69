package io.ticketing.reservations.http;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.ticketing.reservations.problem.ProblemMapper;

/**
 * Overload is refused early (contract section 6): a request that waited longer than {@code http.max-thread-wait} for a
 * request thread gets 503 {@code overloaded} with {@code Retry-After} instead of being served late, so the answer
 * time stays bounded at any number of clients. The wait counts from when the request was ready to run (after
 * the event gate, where it passed one) to when a request thread picked it up.
 */
@ApplicationScoped
class RequestThreads {

    private static final String READY_AT = RequestThreads.class.getName() + ".readyAt";

    private final long maxWaitNanos;

    RequestThreads(@ConfigProperty(name = "http.max-thread-wait") Duration maxWait) {
        this.maxWaitNanos = maxWait.toNanos();
    }

    /**
     * Non-blocking filters run on the event loop before the request is handed to a request thread, after Quarkus
     * Security's token and role check and the event gate (110); every blocking filter comes after them all.
     */
    @ServerRequestFilter(nonBlocking = true, priority = 120)
    void ready(ContainerRequestContext request) {
        request.setProperty(READY_AT, System.nanoTime());
    }

    @ServerRequestFilter(priority = 130)
    Response started(ContainerRequestContext request) {
        if (request.getProperty(READY_AT) instanceof Long readyAt && System.nanoTime() - readyAt > maxWaitNanos) {
            return ProblemMapper.respond(ProblemMapper.overloaded());
        }
        return null;
    }
}

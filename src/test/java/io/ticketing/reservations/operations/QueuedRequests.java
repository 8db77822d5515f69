package io.ticketing.reservations.operations;

import java.util.concurrent.CountDownLatch;

import jakarta.ws.rs.container.ContainerRequestContext;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Test-only: tells a test when a request it marked with {@value #HEADER} is ready to run and waits for a request
 * thread, so that the test can let the wait pass from then on, not from when its client sent the request.
 */
public class QueuedRequests {

    static final String HEADER = "X-Test-Queued";
    static volatile CountDownLatch ready = new CountDownLatch(0);

    /** Runs on the event loop after {@code RequestThreads} noted when the request was ready (120). */
    @ServerRequestFilter(nonBlocking = true, priority = 125)
    void ready(ContainerRequestContext request) {
        if (request.getHeaderString(HEADER) != null) {
            ready.countDown();
        }
    }
}

package io.ticketing.reservations.operations;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.eclipse.microprofile.openapi.annotations.Operation;

/** A test-only endpoint that keeps its request thread until the test lets it go. Hidden from the document. */
@Path("/test/busy")
public class BusyThreadsResource {

    static volatile CountDownLatch release = new CountDownLatch(0);
    static volatile CountDownLatch started = new CountDownLatch(0);

    @GET
    @Operation(hidden = true)
    public String busy() throws InterruptedException {
        started.countDown();
        return release.await(30, TimeUnit.SECONDS) ? "released" : "never released";
    }
}

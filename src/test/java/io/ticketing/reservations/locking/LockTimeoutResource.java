package io.ticketing.reservations.locking;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * A test-only endpoint that takes a lock the way the cart flows will, to test the HTTP side of a timeout. Hidden from
 * the OpenAPI document, which must be the same in the tests as in production.
 */
@Path("/test/locks")
public class LockTimeoutResource {

    @Inject
    LockProbe probe;

    @POST
    @Path("/{event}/quotas/{quota}")
    @Operation(hidden = true)
    @TakesLocks
    public void lockQuota(@PathParam("event") long event, @PathParam("quota") long quota) {
        probe.lock(event, List.of(LockTarget.quota(quota, null)));
    }
}

package io.ticketing.reservations.http;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.logging.Logger;

/** A test-only endpoint that logs on a request thread, as a service does while it serves a request. */
@Path("/test/log")
public class LoggingResource {

    static final Logger LOG = Logger.getLogger(LoggingResource.class);

    @GET
    @Operation(hidden = true)
    public String log() {
        LOG.info("logged while serving the request");
        return Thread.currentThread().getName();
    }
}

package io.ticketing.reservations.checkin;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.openapi.ApiDocs;
import io.ticketing.reservations.problem.Problem;

/**
 * Scans (contract section 14). Not {@code Idempotent}: the scan's {@code nonce} is its idempotency key, kept with the
 * scan for as long as the list exists, so an offline queue replayed a day later still counts once.
 */
@Tag(name = "Check-in")
@Path("/api/v1/events/{event}/checkin_lists/{list}/scans")
@RolesAllowed(Roles.CHECKIN)
@SecurityRequirement(name = Roles.CHECKIN)
@Produces(MediaType.APPLICATION_JSON)
public class ScanResource {

    private final EventService events;
    private final CheckinService checkin;

    ScanResource(EventService events, CheckinService checkin) {
        this.events = events;
        this.checkin = checkin;
    }

    @Operation(operationId = "scanTicket", summary = "Scan a ticket at a gate: entry or exit, judged once per nonce", description = "Called by a gate's scanner (a `checkin` token) for each code it reads: `result` is `ok`, `already_inside`, `unpaid`, `canceled`, `not_on_list` or `unknown`, and only `ok` moves the ticket. After a timeout, resend with the same `nonce`: it answers the first result.")
    @APIResponseSchema(value = ScanView.class, responseCode = "201", responseDescription = "The scan's result; only ok changed anything")
    @APIResponse(responseCode = "409", description = "The nonce was sent before on this list with another ticket or type.", extensions = @Extension(name = ApiDocs.CODES, value = "nonce_reused"))
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @POST
    public Response scan(@PathParam("event") String slug, @PathParam("list") long listId,
            @Valid @NotNull ScanRequest request) {
        return Response.status(Response.Status.CREATED).entity(checkin.scan(events.get(slug), listId, request))
                .build();
    }
}

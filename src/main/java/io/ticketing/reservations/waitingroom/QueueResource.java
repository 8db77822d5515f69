package io.ticketing.reservations.waitingroom;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.availability.AvailabilityUnchanged;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.ClientAddress;
import io.ticketing.reservations.http.Created;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.locking.TakesLocks;
import io.ticketing.reservations.openapi.ApiDocs;

@Tag(name = "Waiting room")
@AvailabilityUnchanged
@Path("/api/v1/events/{event}/queue")
@Idempotent
@RolesAllowed(Roles.STOREFRONT)
@SecurityRequirement(name = Roles.STOREFRONT)
@Produces(MediaType.APPLICATION_JSON)
public class QueueResource {

    private final EventService events;
    private final WaitingRoom waitingRoom;
    private final ClientAddress client;

    QueueResource(EventService events, WaitingRoom waitingRoom, ClientAddress client) {
        this.events = events;
        this.waitingRoom = waitingRoom;
        this.client = client;
    }

    /** An optional body: the buyer the shop vouches for, whose tickets are limited too. */
    public record NewTicket(
            @Schema(nullable = true, description = "the buyer the shop's server vouches for (POST /events/{event}/buyer_tokens)") @Size(min = 1, max = 1000) String buyerToken) {
    }

    @Operation(operationId = "joinQueue", summary = "Take a place in the event's waiting room", description = "Poll the ticket until it carries an admission token, then send that token in the `Admission-Token` header of every cart and checkout request. Tickets taken before the opening are admitted in random order.")
    @APIResponseSchema(value = QueueTicketView.class, responseCode = "201", responseDescription = "The ticket; its id is its credential")
    @APIResponse(responseCode = "409", description = "The event has no waiting room on.", extensions = @Extension(name = ApiDocs.CODES, value = "waiting_room_off"))
    @APIResponse(responseCode = "403", description = "A buyer no shop vouched for: a storefront names its buyer with a buyer_token.", extensions = @Extension(name = ApiDocs.CODES, value = "buyer_unverified"))
    @APIResponse(responseCode = "429", description = "This client, or this buyer, holds as many tickets of the event as it may.", extensions = @Extension(name = ApiDocs.CODES, value = "too_many_tickets"))
    @POST
    @TakesLocks
    @Consumes({MediaType.APPLICATION_JSON, MediaType.WILDCARD})
    public Response join(@PathParam("event") String slug,
            @RequestBody(required = false, description = "Optional: the buyer, whose tickets are limited as the client's are") @Valid NewTicket body) {
        QueueTicketView ticket = waitingRoom.join(events.get(slug), client.current(),
                body == null ? null : body.buyerToken());
        return Created.at("/api/v1/events/" + slug + "/queue/" + ticket.ticket()).entity(ticket)
                .build();
    }

    @Operation(operationId = "getQueueTicket", summary = "Read a place in the waiting room", description = "A read: it takes no lock. Poll no more often than every few seconds.")
    @GET
    @Path("/{ticket}")
    public QueueTicketView get(@PathParam("event") String slug, @PathParam("ticket") String ticket) {
        return waitingRoom.ticket(events.get(slug), ticket);
    }
}

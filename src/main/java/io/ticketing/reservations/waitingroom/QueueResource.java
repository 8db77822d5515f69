package io.ticketing.reservations.waitingroom;

import java.net.URI;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
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
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.openapi.ApiDocs;

@Tag(name = "Waiting room")
@Path("/api/v1/events/{event}/queue")
@Idempotent
@RolesAllowed(Roles.STOREFRONT)
@Produces(MediaType.APPLICATION_JSON)
public class QueueResource {

    private final EventService events;
    private final WaitingRoom waitingRoom;

    QueueResource(EventService events, WaitingRoom waitingRoom) {
        this.events = events;
        this.waitingRoom = waitingRoom;
    }

    @Operation(operationId = "joinQueue", summary = "Take a place in the event's waiting room", description = "Poll the ticket until it carries an admission token, then send that token in the `Admission-Token` header of every cart and checkout request. Tickets taken before the opening are admitted in random order.")
    @APIResponseSchema(value = QueueTicketView.class, responseCode = "201", responseDescription = "The ticket; its id is its credential")
    @APIResponse(responseCode = "409", description = "The event has no waiting room on.", extensions = @Extension(name = ApiDocs.CODES, value = "waiting_room_off"))
    @POST
    public Response join(@PathParam("event") String slug) {
        QueueTicketView ticket = waitingRoom.join(events.get(slug));
        return Response.created(URI.create("/api/v1/events/" + slug + "/queue/" + ticket.ticket())).entity(ticket)
                .build();
    }

    @Operation(operationId = "getQueueTicket", summary = "Read a place in the waiting room", description = "A read: it takes no lock. Poll no more often than every few seconds.")
    @GET
    @Path("/{ticket}")
    public QueueTicketView get(@PathParam("event") String slug, @PathParam("ticket") String ticket) {
        return waitingRoom.ticket(events.get(slug), ticket);
    }
}

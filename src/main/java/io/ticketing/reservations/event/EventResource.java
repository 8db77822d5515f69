package io.ticketing.reservations.event;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.http.Created;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.openapi.ApiDocs;

@Tag(name = "Events")
@Path("/api/v1/events")
@Idempotent
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class EventResource {

    private final EventService events;

    EventResource(EventService events) {
        this.events = events;
    }

    @Operation(operationId = "createEvent", summary = "Create an event", description = "Called by an organizer's back office to set up a sale before its items and quotas. `slug` is unique across all organizers (409 `slug_taken`); a platform token names the `organizer` (else `default`), an organizer's token creates in its own.")
    @APIResponseSchema(value = EventView.class, responseCode = "201", responseDescription = "The event")
    @APIResponse(responseCode = "409", description = "An event with this slug exists.", extensions = @Extension(name = ApiDocs.CODES, value = "slug_taken"))
    @POST
    public Response create(@Valid @NotNull EventRequests.NewEvent request) {
        Event event = events.create(request);
        return Created.at("/api/v1/events/" + event.slug)
                .entity(EventView.of(event, events.organizerSlug(event)))
                .header(HttpHeaders.ETAG, IfMatch.etag(event.version)).build();
    }

    @Operation(operationId = "listEvents", summary = "List events, oldest first", description = "Lists only the events the caller's token reaches, in the order they were created; page with `limit` and `cursor`. A read: it takes no lock.")
    @GET
    public Page<EventView> list(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return events.list(PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "getEvent", summary = "Read an event", description = "Reads the event as committed now (not the short per-replica cache the sale endpoints use), with its `version` as `ETag`: send it in `If-Match` to change the event. A read: it takes no lock.")
    @APIResponseSchema(value = EventView.class, responseCode = "200", responseDescription = "The event")
    @GET
    @Path("/{event}")
    public Response get(@PathParam("event") String slug) {
        return view(events.current(slug));
    }

    @Operation(operationId = "updateEvent", summary = "Change an event's name, currency, cart TTL or payment term", description = "Also sets `max_per_buyer` and turns the `waiting_room` and `waiting_list` on or off (each object replaced whole). Needs `If-Match`; takes no inventory lock. A new cart TTL or payment term applies to holds and orders made afterwards.")
    @APIResponseSchema(value = EventView.class, responseCode = "200", responseDescription = "The event as changed")
    @PATCH
    @Path("/{event}")
    public Response update(@PathParam("event") String slug, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @Context Request request,
            @Valid @NotNull EventRequests.EventChanges changes) {
        return view(events.update(slug, IfMatch.required(request, ifMatch), changes));
    }

    private Response view(Event event) {
        return Response.ok(EventView.of(event, events.organizerSlug(event)))
                .header(HttpHeaders.ETAG, IfMatch.etag(event.version)).build();
    }
}

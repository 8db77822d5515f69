package io.ticketing.reservations.event;

import java.net.URI;

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
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.ticketing.reservations.auth.RequiresScope;
import io.ticketing.reservations.auth.Scope;
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.idempotency.Idempotent;

@Path("/api/v1/events")
@Idempotent
@RequiresScope(Scope.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class EventResource {

    private final EventService events;

    EventResource(EventService events) {
        this.events = events;
    }

    @POST
    public Response create(@Valid @NotNull EventRequests.NewEvent request) {
        Event event = events.create(request);
        return Response.created(URI.create("/api/v1/events/" + event.slug)).entity(EventView.of(event))
                .header(HttpHeaders.ETAG, IfMatch.etag(event.version)).build();
    }

    @GET
    public Page<EventView> list(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return events.list(PageRequest.of(limit, cursor));
    }

    @GET
    @Path("/{event}")
    public Response get(@PathParam("event") String slug) {
        return view(events.current(slug));
    }

    @PATCH
    @Path("/{event}")
    public Response update(@PathParam("event") String slug, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @Valid @NotNull EventRequests.EventChanges changes) {
        return view(events.update(slug, IfMatch.expectedVersion(ifMatch), changes));
    }

    private static Response view(Event event) {
        return Response.ok(EventView.of(event)).header(HttpHeaders.ETAG, IfMatch.etag(event.version)).build();
    }
}

package io.ticketing.reservations.event;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.Response;

import io.ticketing.reservations.auth.RequiresScope;
import io.ticketing.reservations.auth.Scope;

@Path("/api/v1/events")
public class EventResource {

    @GET
    @Path("/{event}")
    @RequiresScope(Scope.ADMIN)
    public Response get(@PathParam("event") String slug) {
        Event event = Event.findBySlug(slug).orElseThrow(() -> new EventNotFoundException(slug));
        return Response.ok(EventView.of(event)).tag(new EntityTag(Long.toString(event.version))).build();
    }
}

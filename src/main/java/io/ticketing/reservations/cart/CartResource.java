package io.ticketing.reservations.cart;

import java.net.URI;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.ticketing.reservations.auth.RequiresScope;
import io.ticketing.reservations.auth.Scope;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.idempotency.Idempotent;

@Path("/api/v1/events/{event}/carts")
@Idempotent
@RequiresScope(Scope.STOREFRONT)
@Produces(MediaType.APPLICATION_JSON)
public class CartResource {

    private final EventService events;
    private final CartService carts;

    CartResource(EventService events, CartService carts) {
        this.events = events;
        this.carts = carts;
    }

    @POST
    public Response create(@PathParam("event") String slug) {
        CartService.Contents cart = carts.create(events.get(slug));
        return Response.created(URI.create("/api/v1/events/" + slug + "/carts/" + cart.cart().id))
                .entity(carts.view(cart))
                .build();
    }

    @GET
    @Path("/{cart}")
    public CartView get(@PathParam("event") String slug, @PathParam("cart") String cartId) {
        return carts.view(carts.get(events.get(slug), cartId));
    }

    @DELETE
    @Path("/{cart}")
    public Response delete(@PathParam("event") String slug, @PathParam("cart") String cartId) {
        carts.delete(events.get(slug), cartId);
        return Response.noContent().build();
    }

    @POST
    @Path("/{cart}/positions")
    public Response add(@PathParam("event") String slug, @PathParam("cart") String cartId,
            @Valid @NotNull CartRequests.NewPositions request) {
        Event event = events.get(slug);
        return Response.status(Response.Status.CREATED)
                .entity(carts.view(carts.add(event, cartId, request.positions()))).build();
    }

    @DELETE
    @Path("/{cart}/positions/{position}")
    public Response removePosition(@PathParam("event") String slug, @PathParam("cart") String cartId,
            @PathParam("position") long positionId) {
        carts.removePosition(events.get(slug), cartId, positionId);
        return Response.noContent().build();
    }

    @POST
    @Path("/{cart}/extend")
    public Response extend(@PathParam("event") String slug, @PathParam("cart") String cartId) {
        return Response.ok(carts.view(carts.extend(events.get(slug), cartId))).build();
    }
}

package io.ticketing.reservations.cart;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Created;
import io.ticketing.reservations.idempotency.DecidedInBatches;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.locking.TakesLocks;
import io.ticketing.reservations.openapi.ApiDocs;
import io.ticketing.reservations.problem.Problem;
import io.ticketing.reservations.waitingroom.WaitingRoom;

@Tag(name = "Carts")
@Path("/api/v1/events/{event}/carts")
@Idempotent
@RolesAllowed(Roles.STOREFRONT)
@SecurityRequirement(name = Roles.STOREFRONT)
@Produces(MediaType.APPLICATION_JSON)
public class CartResource {

    private final CartService carts;
    private final CartAdds adds;
    private final WaitingRoom waitingRoom;

    CartResource(CartService carts, CartAdds adds, WaitingRoom waitingRoom) {
        this.carts = carts;
        this.adds = adds;
        this.waitingRoom = waitingRoom;
    }

    @Operation(operationId = "createCart", summary = "Open an empty cart", description = "Called by the storefront when a buyer starts choosing; the cart's `id` is its credential. Send the `buyer_token` from the shop's server so per-buyer limits count. With the waiting room on, `Admission-Token` is required and opens one cart only.")
    @APIResponseSchema(value = CartView.class, responseCode = "201", responseDescription = "The cart; its id is its credential")
    @APIResponse(responseCode = "403", description = "A buyer no shop vouched for: a storefront names its buyer with a buyer_token.", extensions = @Extension(name = ApiDocs.CODES, value = "buyer_unverified"))
    @POST
    @Consumes({MediaType.APPLICATION_JSON, MediaType.WILDCARD})
    public Response create(@PathParam("event") String slug,
            @HeaderParam(WaitingRoom.HEADER) String admissionToken,
            @RequestBody(required = false, description = "Optional: the buyer per-buyer limits count by, as a buyer_token the shop's server asked for (an admin token may name the buyer as it is); no body, an empty one or null opens a cart without one") @Valid CartRequests.NewCart body) {
        CartRows.Contents cart = carts.create(waitingRoom.admittedToOpen(slug, admissionToken),
                body == null ? null : body.buyer(), body == null ? null : body.buyerToken());
        return Created.at("/api/v1/events/" + slug + "/carts/" + cart.cart().id())
                .entity(carts.view(cart))
                .build();
    }

    @Operation(operationId = "getCart", summary = "Read a cart", description = "Called by the checkout page to show what is held and until when: each position's `expires`. A read takes no lock; with the waiting room on, send the cart's `Admission-Token`.")
    @GET
    @Path("/{cart}")
    public CartView get(@PathParam("event") String slug,
            @HeaderParam(WaitingRoom.HEADER) String admission, @PathParam("cart") String cartId) {
        return carts.view(carts.get(waitingRoom.admitted(slug, admission, cartId), cartId));
    }

    @Operation(operationId = "deleteCart", summary = "Delete a cart, freeing all it holds", description = "Called when the buyer abandons the checkout: every hold is freed at once, without a lock, and the cart id then answers 404.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @DELETE
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Path("/{cart}")
    public Response delete(@PathParam("event") String slug,
            @HeaderParam(WaitingRoom.HEADER) String admission, @PathParam("cart") String cartId) {
        carts.delete(waitingRoom.admitted(slug, admission, cartId), cartId);
        return Response.noContent().build();
    }

    @TakesLocks
    @Operation(operationId = "addPositions", summary = "Hold tickets, seats and vouchers, all or none", description = "Called when the buyer picks tickets: each position is `{item_id, quantity?, seat_guid?, voucher_code?, date_id?}` (`quantity` 1 with a seat), held for `cart_ttl_seconds`. All or nothing: one that does not fit refuses the request with its code and holds nothing.")
    @APIResponseSchema(value = CartView.class, responseCode = "201", responseDescription = "The cart with its new positions")
    @APIResponse(responseCode = "409", description = ApiDocs.SOLD_OUT_DESCRIPTION, extensions = @Extension(name = ApiDocs.CODES, value = ApiDocs.SOLD_OUT))
    @APIResponse(responseCode = "413", description = "More tickets in one request than allowed.", extensions = @Extension(name = ApiDocs.CODES, value = "too_many_positions payload_too_large"))
    @POST
    @DecidedInBatches
    @Path("/{cart}/positions")
    public Response add(@PathParam("event") String slug,
            @HeaderParam(WaitingRoom.HEADER) String admission, @PathParam("cart") String cartId,
            @Valid @NotNull CartRequests.NewPositions request) {
        Event event = waitingRoom.admitted(slug, admission, cartId);
        return adds.add(event, cartId, request.positions(),
                added -> Response.status(Response.Status.CREATED).entity(carts.view(added)).build());
    }

    @TakesLocks
    @Operation(operationId = "addBestAvailable", summary = "Hold the best adjacent seats of an item, all or none", description = "Adjacent seats of one row when any row has enough, leaving no single seat stranded where that can be avoided; else the seats of the fewest rows. Locks the whole event for a moment.")
    @APIResponseSchema(value = CartView.class, responseCode = "201", responseDescription = "The cart with its new positions")
    @APIResponse(responseCode = "409", description = ApiDocs.SOLD_OUT_DESCRIPTION, extensions = @Extension(name = ApiDocs.CODES, value = ApiDocs.SOLD_OUT))
    @APIResponse(responseCode = "413", description = "More seats than one request may hold.", extensions = @Extension(name = ApiDocs.CODES, value = "too_many_positions payload_too_large"))
    @POST
    @Path("/{cart}/best_available")
    public Response addBestAvailable(@PathParam("event") String slug,
            @HeaderParam(WaitingRoom.HEADER) String admission, @PathParam("cart") String cartId,
            @Valid @NotNull CartRequests.BestAvailable request) {
        Event event = waitingRoom.admitted(slug, admission, cartId);
        return Response.status(Response.Status.CREATED)
                .entity(carts.view(adds.addBestAvailable(event, cartId, request))).build();
    }

    @Operation(operationId = "removePosition", summary = "Give one position back", description = "Called when the buyer takes a ticket out of the cart: the capacity is free at once, without a lock. A bundle's position leaves with what it brought; a position the bundle brought cannot leave alone (409 `position_bundled`).")
    @APIResponse(responseCode = "204", description = "Removed, with what it bundles")
    @APIResponse(responseCode = "409", description = "The position came with a bundle: remove the bundle's position.", extensions = @Extension(name = ApiDocs.CODES, value = "position_bundled"))
    @DELETE
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Path("/{cart}/positions/{position}")
    public Response removePosition(@PathParam("event") String slug,
            @HeaderParam(WaitingRoom.HEADER) String admission, @PathParam("cart") String cartId,
            @PathParam("position") long positionId) {
        carts.removePosition(waitingRoom.admitted(slug, admission, cartId), cartId, positionId);
        return Response.noContent().build();
    }

    @Operation(operationId = "extendCart", summary = "Extend every hold of the cart", description = "Called when the buyer needs more time: live holds get `cart_ttl_seconds` from now without a check; expired ones are re-checked under the locks, all or nothing. No hold goes past its creation plus `CART_MAX_HOLD` (2 h by default): 409 `hold_limit`.")
    @APIResponseSchema(value = CartView.class, responseCode = "200", responseDescription = "The cart with its new deadlines")
    @APIResponse(responseCode = "409", description = "An expired hold is no longer free (see `code`), or a hold would pass its creation plus the longest hold (`hold_limit`).", extensions = @Extension(name = ApiDocs.CODES, value = ApiDocs.SOLD_OUT
            + " hold_limit"))
    @TakesLocks
    @POST
    @Path("/{cart}/extend")
    public Response extend(@PathParam("event") String slug,
            @HeaderParam(WaitingRoom.HEADER) String admission, @PathParam("cart") String cartId) {
        return Response.ok(carts.view(carts.extend(waitingRoom.admitted(slug, admission, cartId), cartId))).build();
    }
}

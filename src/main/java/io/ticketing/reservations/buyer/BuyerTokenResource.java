package io.ticketing.reservations.buyer;

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
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.availability.AvailabilityUnchanged;
import io.ticketing.reservations.event.EventService;

@Tag(name = "Carts")
@AvailabilityUnchanged
@Path("/api/v1/events/{event}/buyer_tokens")
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class BuyerTokenResource {

    private final EventService events;
    private final BuyerTokens tokens;

    BuyerTokenResource(EventService events, BuyerTokens tokens) {
        this.events = events;
        this.tokens = tokens;
    }

    @Operation(operationId = "createBuyerToken", summary = "Vouch for a buyer: the token a storefront names its buyer with", description = "Called by the shop's server (an admin token), which hands `buyer_token` to the buyer's browser. Per-buyer limits, carts, queue tickets and waiting-list entries count by the buyer it names; a browser cannot make one up.")
    @APIResponseSchema(value = BuyerRequests.BuyerToken.class, responseCode = "201", responseDescription = "The signed buyer, valid for a day")
    @POST
    public Response create(@PathParam("event") String slug, @Valid @NotNull BuyerRequests.NewBuyerToken request) {
        return Response.status(Response.Status.CREATED).entity(tokens.issue(events.get(slug), request.buyer()))
                .build();
    }
}

package io.ticketing.reservations.inventory;

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
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.ticketing.reservations.auth.RequiresScope;
import io.ticketing.reservations.auth.Scope;
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.idempotency.Idempotent;

@Path("/api/v1/events/{event}")
@Idempotent
@RequiresScope(Scope.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class InventoryResource {

    private final EventService events;
    private final InventoryService inventory;
    private final StorefrontAvailability storefront;

    InventoryResource(EventService events, InventoryService inventory, StorefrontAvailability storefront) {
        this.events = events;
        this.inventory = inventory;
        this.storefront = storefront;
    }

    @POST
    @Path("/items")
    public Response createItem(@PathParam("event") String slug, @Valid @NotNull InventoryRequests.NewItem request) {
        Event event = events.get(slug);
        Item item = inventory.createItem(event, request);
        return Response.created(URI.create("/api/v1/events/" + slug + "/items/" + item.id))
                .header(HttpHeaders.ETAG, IfMatch.etag(item.version)).entity(InventoryViews.ItemView.of(item)).build();
    }

    @GET
    @Path("/items")
    public InventoryViews.ItemList items(@PathParam("event") String slug) {
        return new InventoryViews.ItemList(
                inventory.items(events.get(slug)).stream().map(InventoryViews.ItemView::of).toList());
    }

    @POST
    @Path("/quotas")
    public Response createQuota(@PathParam("event") String slug, @Valid @NotNull InventoryRequests.NewQuota request) {
        Quota quota = inventory.createQuota(events.get(slug), request);
        return Response.created(URI.create("/api/v1/events/" + slug + "/quotas/" + quota.id))
                .header(HttpHeaders.ETAG, IfMatch.etag(quota.version)).entity(InventoryViews.QuotaView.of(quota))
                .build();
    }

    @GET
    @Path("/quotas/{quota}")
    public Response quota(@PathParam("event") String slug, @PathParam("quota") long quotaId) {
        return quotaResponse(inventory.quota(events.get(slug), quotaId));
    }

    @PATCH
    @Path("/quotas/{quota}")
    public Response updateQuota(@PathParam("event") String slug, @PathParam("quota") long quotaId,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @Valid @NotNull InventoryRequests.QuotaChanges changes) {
        long expected = IfMatch.expectedVersion(ifMatch);
        return quotaResponse(inventory.updateQuota(events.get(slug), quotaId, expected, changes));
    }

    @GET
    @Path("/quotas/{quota}/availability")
    public QuotaAvailability availability(@PathParam("event") String slug, @PathParam("quota") long quotaId) {
        return inventory.availability(events.get(slug), quotaId);
    }

    @GET
    @Path("/availability")
    @RequiresScope(Scope.STOREFRONT)
    public InventoryViews.EventAvailability storefrontAvailability(@PathParam("event") String slug) {
        return storefront.of(events.get(slug));
    }

    private static Response quotaResponse(Quota quota) {
        return Response.ok(InventoryViews.QuotaView.of(quota)).header(HttpHeaders.ETAG, IfMatch.etag(quota.version))
                .build();
    }
}

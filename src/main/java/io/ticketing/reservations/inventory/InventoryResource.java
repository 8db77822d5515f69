package io.ticketing.reservations.inventory;

import java.net.URI;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.DELETE;
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
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
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
    public Page<InventoryViews.ItemView> items(@PathParam("event") String slug, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return inventory.items(events.get(slug), PageRequest.of(limit, cursor));
    }

    @GET
    @Path("/items/{item}")
    public Response item(@PathParam("event") String slug, @PathParam("item") long itemId) {
        return itemResponse(inventory.item(events.get(slug), itemId));
    }

    @PATCH
    @Path("/items/{item}")
    public Response updateItem(@PathParam("event") String slug, @PathParam("item") long itemId,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @Valid @NotNull InventoryRequests.ItemChanges changes) {
        long expected = IfMatch.expectedVersion(ifMatch);
        return itemResponse(inventory.updateItem(events.get(slug), itemId, expected, changes));
    }

    @DELETE
    @Path("/items/{item}")
    public Response deleteItem(@PathParam("event") String slug, @PathParam("item") long itemId) {
        inventory.deleteItem(events.get(slug), itemId);
        return Response.noContent().build();
    }

    @GET
    @Path("/quotas")
    public Page<InventoryViews.QuotaView> quotas(@PathParam("event") String slug, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return inventory.quotas(events.get(slug), PageRequest.of(limit, cursor));
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

    @DELETE
    @Path("/quotas/{quota}")
    public Response deleteQuota(@PathParam("event") String slug, @PathParam("quota") long quotaId) {
        inventory.deleteQuota(events.get(slug), quotaId);
        return Response.noContent().build();
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

    @GET
    @Path("/catalog")
    @RequiresScope(Scope.STOREFRONT)
    public InventoryViews.Catalog catalog(@PathParam("event") String slug) {
        return storefront.catalog(events.get(slug));
    }

    private static Response itemResponse(Item item) {
        return Response.ok(InventoryViews.ItemView.of(item)).header(HttpHeaders.ETAG, IfMatch.etag(item.version))
                .build();
    }

    private static Response quotaResponse(Quota quota) {
        return Response.ok(InventoryViews.QuotaView.of(quota)).header(HttpHeaders.ETAG, IfMatch.etag(quota.version))
                .build();
    }
}

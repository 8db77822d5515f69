package io.ticketing.reservations.inventory;

import jakarta.annotation.security.RolesAllowed;
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
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.Created;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.locking.TakesLocks;
import io.ticketing.reservations.openapi.ApiDocs;
import io.ticketing.reservations.problem.Problem;

@Tag(name = "Inventory")
@Path("/api/v1/events/{event}")
@Idempotent
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class InventoryResource {

    private final EventService events;
    private final InventoryService inventory;
    private final QuotaService quotas;

    InventoryResource(EventService events, InventoryService inventory, QuotaService quotas) {
        this.events = events;
        this.inventory = inventory;
        this.quotas = quotas;
    }

    @Operation(operationId = "createItem", summary = "Create an item (a ticket type)", description = "Use it to add a ticket type; it sells nothing until a quota holds it, so it takes no lock. Options: `requires_seat`, `max_per_buyer`, `every_date` (a pass), `bundle`, per-date `prices` and `channels`; `active` defaults to true.")
    @APIResponseSchema(value = InventoryViews.ItemView.class, responseCode = "201", responseDescription = "The item")
    @POST
    @Path("/items")
    public Response createItem(@PathParam("event") String slug, @Valid @NotNull InventoryRequests.NewItem request) {
        Event event = events.get(slug);
        InventoryViews.ItemView item = inventory.createItem(event, request);
        return Created.at("/api/v1/events/" + slug + "/items/" + item.id())
                .header(HttpHeaders.ETAG, IfMatch.etag(item.version())).entity(item).build();
    }

    @Operation(operationId = "listItems", summary = "List the event's items", description = "Lists the event's items in the order they were created, inactive ones too, with their bundles and prices on dates. Page with `limit` and `cursor`; a read takes no lock. A storefront reads the catalog instead.")
    @GET
    @Path("/items")
    public Page<InventoryViews.ItemView> items(@PathParam("event") String slug, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return inventory.items(events.get(slug), PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "getItem", summary = "Read an item", description = "Use it before an edit: its `ETag` goes in `If-Match`. Shows the item's `bundle`, per-date `prices` and `channels`; what it has left is in its quotas' availability or the catalog. A read takes no lock.")
    @APIResponseSchema(value = InventoryViews.ItemView.class, responseCode = "200", responseDescription = "The item")
    @GET
    @Path("/items/{item}")
    public Response item(@PathParam("event") String slug, @PathParam("item") long itemId) {
        return itemResponse(inventory.itemView(inventory.item(events.get(slug), itemId)));
    }

    @Operation(operationId = "updateItem", summary = "Change an item's name, price, prices on dates, per-buyer limit or whether it is on sale", description = "Needs `If-Match`. Takes no lock: a new price or limit applies to holds taken from then on, and a lower `max_per_buyer` takes nothing back. `active: false` takes it off sale; back on sale, its waiting-list entries count again and offers run.")
    @APIResponseSchema(value = InventoryViews.ItemView.class, responseCode = "200", responseDescription = "The item as changed")
    @PATCH
    @Path("/items/{item}")
    public Response updateItem(@PathParam("event") String slug, @PathParam("item") long itemId,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @Context Request request,
            @Valid @NotNull InventoryRequests.ItemChanges changes) {
        return itemResponse(
                inventory.updateItem(events.get(slug), itemId, IfMatch.required(request, ifMatch), changes));
    }

    @Operation(operationId = "deleteItem", summary = "Delete an item nothing was held or sold as", description = "Refused (409 `in_use`) while a live hold, any order position, a seat, a voucher, a bundle or the seating plan names it; set `active` to false instead. Takes no lock.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "409", description = "Held, sold, or named by a seat or voucher; deactivate it instead.", extensions = @Extension(name = ApiDocs.CODES, value = "in_use"))
    @DELETE
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Path("/items/{item}")
    public Response deleteItem(@PathParam("event") String slug, @PathParam("item") long itemId) {
        inventory.deleteItem(events.get(slug), itemId);
        return Response.noContent().build();
    }

    @Operation(operationId = "listQuotas", summary = "List the event's quotas", description = "Lists the event's quotas in the order they were created, with `size`, `items` and `date_id`; page with `limit` and `cursor`. What each has left is at its `/availability`; a read takes no lock.")
    @GET
    @Path("/quotas")
    public Page<InventoryViews.QuotaView> quotas(@PathParam("event") String slug, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return quotas.quotas(events.get(slug), PageRequest.of(limit, cursor));
    }

    @TakesLocks
    @Operation(operationId = "createQuota", summary = "Create a quota over items", description = "Use it to cap items sold together (a hall, a block, or one date with `date_id`); `size` null is unlimited. A finite quota over items already held or sold is locked and refused (409 `quota_exhausted`) when they count more than `size`.")
    @APIResponseSchema(value = InventoryViews.QuotaView.class, responseCode = "201", responseDescription = "The quota")
    @APIResponse(responseCode = "409", description = "The items hold, sold or block more than the size.", extensions = @Extension(name = ApiDocs.CODES, value = "quota_exhausted"))
    @POST
    @Path("/quotas")
    public Response createQuota(@PathParam("event") String slug, @Valid @NotNull InventoryRequests.NewQuota request) {
        Quota quota = quotas.createQuota(events.get(slug), request);
        return Created.at("/api/v1/events/" + slug + "/quotas/" + quota.id)
                .header(HttpHeaders.ETAG, IfMatch.etag(quota.version)).entity(InventoryViews.QuotaView.of(quota))
                .build();
    }

    @Operation(operationId = "getQuota", summary = "Read a quota", description = "Returns `size`, `items` and `date_id` with the `ETag` a change sends in `If-Match`; what it has left is at its `/availability`. A read takes no lock.")
    @APIResponseSchema(value = InventoryViews.QuotaView.class, responseCode = "200", responseDescription = "The quota")
    @GET
    @Path("/quotas/{quota}")
    public Response quota(@PathParam("event") String slug, @PathParam("quota") long quotaId) {
        return quotaResponse(quotas.quota(events.get(slug), quotaId));
    }

    @TakesLocks
    @Operation(operationId = "updateQuota", summary = "Change a quota's name, size or items", description = "Needs `If-Match`. A smaller `size` may go below what the quota holds: it then sells nothing until enough is freed, the way to close a sale. Adding items or giving an unlimited quota a size is locked and refused rather than oversell; `size: null` makes it unlimited.")
    @APIResponseSchema(value = InventoryViews.QuotaView.class, responseCode = "200", responseDescription = "The quota as changed")
    @APIResponse(responseCode = "409", description = "Items joining the quota, or a size given to an unlimited one, would count more than the size.", extensions = @Extension(name = ApiDocs.CODES, value = "quota_exhausted"))
    @PATCH
    @Path("/quotas/{quota}")
    public Response updateQuota(@PathParam("event") String slug, @PathParam("quota") long quotaId,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @Context Request request,
            @Valid @NotNull InventoryRequests.QuotaChanges changes) {
        return quotaResponse(
                quotas.updateQuota(events.get(slug), quotaId, IfMatch.required(request, ifMatch), changes));
    }

    @Operation(operationId = "deleteQuota", summary = "Delete a quota none of whose items was held or sold", description = "Refused (409 `in_use`) while one of its items is held in a cart or in any order, or a voucher names the quota; change its `size` instead. Takes no lock. An item left in no quota is off sale.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "409", description = "Its items were held or sold, or a voucher names it.", extensions = @Extension(name = ApiDocs.CODES, value = "in_use"))
    @DELETE
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Path("/quotas/{quota}")
    public Response deleteQuota(@PathParam("event") String slug, @PathParam("quota") long quotaId) {
        quotas.deleteQuota(events.get(slug), quotaId);
        return Response.noContent().build();
    }

    @Operation(operationId = "getQuotaAvailability", summary = "Count what a quota has left", description = "Use it in the admin dashboard: `available_number` is `size` less paid, pending, live holds and blocking vouchers, shown beside `waiting_list` (kept back) and each allotment's `used` and `unused`. A read takes no lock; buyers see the catalog's number for their channel.")
    @GET
    @Path("/quotas/{quota}/availability")
    public QuotaAvailability availability(@PathParam("event") String slug, @PathParam("quota") long quotaId) {
        return quotas.availability(events.get(slug), quotaId);
    }

    private static Response itemResponse(InventoryViews.ItemView item) {
        return Response.ok(item).header(HttpHeaders.ETAG, IfMatch.etag(item.version())).build();
    }

    private static Response quotaResponse(Quota quota) {
        return Response.ok(InventoryViews.QuotaView.of(quota)).header(HttpHeaders.ETAG, IfMatch.etag(quota.version))
                .build();
    }
}

package io.ticketing.reservations.waitinglist;

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

import io.ticketing.reservations.auth.Access;
import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.availability.AvailabilityUnchanged;
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.ClientAddress;
import io.ticketing.reservations.http.Created;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.http.PersonalData;
import io.ticketing.reservations.http.QueryParams;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.locking.TakesLocks;
import io.ticketing.reservations.openapi.ApiDocs;
import io.ticketing.reservations.problem.Problem;

@Tag(name = "Waiting list")
@AvailabilityUnchanged
@Path("/api/v1/events/{event}/waiting_list")
@Idempotent
@PersonalData
@Produces(MediaType.APPLICATION_JSON)
public class WaitingListResource {

    private final EventService events;
    private final WaitingListService list;
    private final ClientAddress client;
    private final Access access;

    WaitingListResource(EventService events, WaitingListService list, ClientAddress client, Access access) {
        this.access = access;
        this.events = events;
        this.list = list;
        this.client = client;
    }

    @Operation(operationId = "joinWaitingList", summary = "Wait for places of an item that cannot sell them now", description = "Capacity freed while entries wait is offered to them first, in order: highest priority, then oldest. An offer is a voucher for the entry's quantity of the item, shown in the entry and sent as the webhook `waiting_list.offered`; buy with it as with any voucher before it runs out.")
    @APIResponseSchema(value = WaitingListView.class, responseCode = "201", responseDescription = "The entry; its id is its credential")
    @APIResponse(responseCode = "409", description = "The list is off, the item is not on sale in the caller's channel (inactive, in no quota, what its bundle brings in none, or sold elsewhere), one buyer may not have the quantity, the channel can still add the quantity (what a bundle brings counted), or this email waits for the item already.", extensions = @Extension(name = ApiDocs.CODES, value = "waiting_list_off item_unavailable buyer_limit item_available already_waiting"))
    @APIResponse(responseCode = "403", description = "A buyer no shop vouched for: a storefront names its buyer with a buyer_token.", extensions = @Extension(name = ApiDocs.CODES, value = "buyer_unverified"))
    @APIResponse(responseCode = "429", description = "This client, or this buyer, holds as many open entries of the event as it may.", extensions = @Extension(name = ApiDocs.CODES, value = "too_many_entries"))
    @POST
    @TakesLocks
    @RolesAllowed(Roles.STOREFRONT)
    @SecurityRequirement(name = Roles.STOREFRONT)
    public Response join(@PathParam("event") String slug, @Valid @NotNull WaitingListRequests.Join request) {
        WaitingListView entry = list.join(events.get(slug), client.current(), access.channel(), request);
        return Created.at("/api/v1/events/" + slug + "/waiting_list/" + entry.id())
                .header(HttpHeaders.ETAG, IfMatch.etag(entry.version())).entity(entry).build();
    }

    @Operation(operationId = "getWaitingListEntry", summary = "Read a waiting-list entry: its position, or its offer", description = "Called by the storefront to show a buyer where they stand: `position` while waiting, then `offer.voucher_code` and `offer.valid_until` once offered. The entry id is the credential; a read takes no lock.")
    @APIResponseSchema(value = WaitingListView.class, responseCode = "200", responseDescription = "The entry")
    @GET
    @Path("/{entry}")
    @RolesAllowed(Roles.STOREFRONT)
    @SecurityRequirement(name = Roles.STOREFRONT)
    public Response get(@PathParam("event") String slug, @PathParam("entry") String id) {
        WaitingListView entry = list.get(events.get(slug), id);
        return Response.ok(entry).header(HttpHeaders.ETAG, IfMatch.etag(entry.version())).build();
    }

    @Operation(operationId = "leaveWaitingList", summary = "Leave the waiting list, and give back an unused offer", description = "Called when the buyer no longer wants the places. A waiting or offered entry becomes `canceled`; an unused offer ends at once (its voucher's `valid_until` becomes now) and what it kept goes to the next entries. Takes no inventory lock.")
    @APIResponse(responseCode = "204", description = "Left; an entry already over stays as it was")
    @DELETE
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Path("/{entry}")
    @RolesAllowed(Roles.STOREFRONT)
    @SecurityRequirement(name = Roles.STOREFRONT)
    public Response leave(@PathParam("event") String slug, @PathParam("entry") String id) {
        list.cancel(events.get(slug), id);
        return Response.noContent().build();
    }

    @Operation(operationId = "listWaitingList", summary = "List the event's waiting-list entries, oldest first", description = "Use it in the admin to see who waits for what: filter by `status` and `item_id`, page with `limit` and `cursor`. Entries come in the order they joined, not the order of offers (which also follows `priority`); a read takes no lock.")
    @GET
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Page<WaitingListView> entries(@PathParam("event") String slug, @QueryParam("status") String status,
            @QueryParam("item_id") String itemId, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return list.list(events.get(slug), status, QueryParams.id("item_id", itemId), PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "updateWaitingListEntry", summary = "Change an entry's priority: higher is offered first", description = "Use it to move a buyer ahead of (or behind) others waiting for the same item; equal priorities go oldest first. Needs the entry's `ETag` in `If-Match`; a changed `priority` queues a new offer run.")
    @APIResponseSchema(value = WaitingListView.class, responseCode = "200", responseDescription = "The entry as changed")
    @PATCH
    @Path("/{entry}")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response update(@PathParam("event") String slug, @PathParam("entry") String id,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @Context Request request,
            @Valid @NotNull WaitingListRequests.EntryChanges changes) {
        WaitingListView entry = list.changePriority(events.get(slug), id, IfMatch.required(request, ifMatch),
                changes);
        return Response.ok(entry).header(HttpHeaders.ETAG, IfMatch.etag(entry.version())).build();
    }
}

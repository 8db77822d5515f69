package io.ticketing.reservations.checkin;

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
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.Created;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.idempotency.Idempotent;

/** Check-in lists (contract section 14): an admin makes and edits them; a scanner's token reads them. */
@Tag(name = "Check-in")
@Path("/api/v1/events/{event}/checkin_lists")
@Idempotent
@Produces(MediaType.APPLICATION_JSON)
public class CheckinListResource {

    private final EventService events;
    private final CheckinListService lists;

    CheckinListResource(EventService events, CheckinListService lists) {
        this.events = events;
        this.lists = lists;
    }

    @Operation(operationId = "createCheckinList", summary = "Make a check-in list: the tickets valid at some doors", description = "Use one list per entrance or day: `items` (null: every item) and `date_id` (null: every date) decide which tickets are valid on it. Defaults: pending orders refused (`allow_pending`), one entry at a time, re-entry after an exit allowed.")
    @APIResponseSchema(value = CheckinListView.class, responseCode = "201", responseDescription = "The list")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    @POST
    public Response create(@PathParam("event") String slug, @Valid @NotNull CheckinListRequests.NewList request) {
        CheckinListView list = lists.create(events.get(slug), request);
        return Created.at("/api/v1/events/" + slug + "/checkin_lists/" + list.id())
                .header(HttpHeaders.ETAG, IfMatch.etag(list.version())).entity(list).build();
    }

    @Operation(operationId = "listCheckinLists", summary = "List the event's check-in lists with their counts", description = "Called by a scanner app (a `checkin` token) to pick its list, or by the admin: each list with `positions` (tickets valid on it) and `inside`. Page with `limit` and `cursor`; a read takes no lock.")
    @RolesAllowed(Roles.CHECKIN)
    @SecurityRequirement(name = Roles.CHECKIN)
    @GET
    public Page<CheckinListView> list(@PathParam("event") String slug, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return lists.list(events.get(slug), PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "getCheckinList", summary = "Read a check-in list: how many tickets are valid on it and inside", description = "Called by door staff or a dashboard to watch the counts: `positions` are the paid (and, where allowed, pending) tickets of its items and date, `inside` those whose last accepted scan was an entry. A `checkin` token may read it.")
    @APIResponseSchema(value = CheckinListView.class, responseCode = "200", responseDescription = "The list")
    @RolesAllowed(Roles.CHECKIN)
    @SecurityRequirement(name = Roles.CHECKIN)
    @GET
    @Path("/{list}")
    public Response get(@PathParam("event") String slug, @PathParam("list") long listId) {
        return view(lists.get(events.get(slug), listId));
    }

    @Operation(operationId = "updateCheckinList", summary = "Change a check-in list's name, items, date or rules", description = "Needs `If-Match` with the list's `ETag`; `null` for `items` or `date_id` makes every item or date valid. Where each ticket stands is kept: a pass inside stays inside after the list moves to the next day, until it exits.")
    @APIResponseSchema(value = CheckinListView.class, responseCode = "200", responseDescription = "The list as changed")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    @PATCH
    @Path("/{list}")
    public Response update(@PathParam("event") String slug, @PathParam("list") long listId,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @Context Request request,
            @Valid @NotNull CheckinListRequests.ListChanges changes) {
        return view(lists.update(events.get(slug), listId, IfMatch.required(request, ifMatch), changes));
    }

    @Operation(operationId = "deleteCheckinList", summary = "Delete a check-in list and its scans", description = "Use it when a door closes for good: the list's scans and where each ticket stands on it are deleted, and scans sent to it then get 404; tickets and orders are untouched. A date a list names cannot be deleted until the list is.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    @DELETE
    @Path("/{list}")
    public Response delete(@PathParam("event") String slug, @PathParam("list") long listId) {
        lists.delete(events.get(slug), listId);
        return Response.noContent().build();
    }

    private static Response view(CheckinListView list) {
        return Response.ok(list).header(HttpHeaders.ETAG, IfMatch.etag(list.version())).build();
    }
}

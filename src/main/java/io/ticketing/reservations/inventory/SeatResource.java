package io.ticketing.reservations.inventory;

import jakarta.annotation.security.RolesAllowed;
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
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.Created;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.http.QueryParams;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.locking.TakesLocks;
import io.ticketing.reservations.openapi.ApiDocs;

@Tag(name = "Seats")
@Path("/api/v1/events/{event}/seats")
@Idempotent
@Produces(MediaType.APPLICATION_JSON)
public class SeatResource {

    private final EventService events;
    private final SeatService seats;
    private final Access access;

    SeatResource(EventService events, SeatService seats, Access access) {
        this.access = access;
        this.events = events;
        this.seats = seats;
    }

    @Operation(operationId = "createSeats", summary = "Create seats in bulk", description = "Use it to seat a venue without a pretix plan: each seat names its `item_id` (an item with `requires_seat`), and `section`, `row` and `number` for best available; up to 10,000 a request. Takes no lock. A seating plan imported later replaces these seats.")
    @APIResponseSchema(value = InventoryViews.SeatList.class, responseCode = "201", responseDescription = "The seats created")
    @APIResponse(responseCode = "409", description = "A seat with one of these guids exists.", extensions = @Extension(name = ApiDocs.CODES, value = "seat_exists"))
    @POST
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response create(@PathParam("event") String slug, @Valid @NotNull InventoryRequests.NewSeats request) {
        InventoryViews.SeatList created = new InventoryViews.SeatList(seats.create(events.get(slug), request,
                access.channel()));
        return Created.at("/api/v1/events/" + slug + "/seats").entity(created).build();
    }

    @Operation(operationId = "listSeats", summary = "List the seating plan (of one date, with date_id), or only the free seats", description = "available: the caller's channel can take the seat now (a seat kept for other channels is not available to it).")
    @GET
    @RolesAllowed(Roles.STOREFRONT)
    @SecurityRequirement(name = Roles.STOREFRONT)
    public Page<InventoryViews.SeatView> list(@PathParam("event") String slug,
            @QueryParam("available") String onlyAvailable, @QueryParam("date_id") String dateId,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return seats.list(events.get(slug), QueryParams.id("date_id", dateId),
                QueryParams.bool("available", onlyAvailable), access.channel(), PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "getSeat", summary = "Read a seat (of one date, with date_id)", description = "Use it before editing a seat: its `ETag` goes in `If-Match`. Shows `x` and `y` for a plan's seat and `available` for the caller's channel; in an event with dates pass `date_id`, since a guid repeats on every date. A read takes no lock.")
    @APIResponseSchema(value = InventoryViews.SeatView.class, responseCode = "200", responseDescription = "The seat")
    @GET
    @Path("/{guid}")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response get(@PathParam("event") String slug, @PathParam("guid") String guid,
            @QueryParam("date_id") String dateId) {
        return view(seats.get(events.get(slug), QueryParams.id("date_id", dateId), guid, access.channel()));
    }

    @TakesLocks
    @Operation(operationId = "updateSeat", summary = "Rename, block or unblock a seat, or keep it for channels", description = "Use it to block a seat (locked, and refused while it is held, sold or bound to a voucher), to rename or unblock it, or to keep it for `channels` (no lock; holds elsewhere stay). Needs `If-Match`; `date_id` picks the date's seat.")
    @APIResponseSchema(value = InventoryViews.SeatView.class, responseCode = "200", responseDescription = "The seat as changed")
    @APIResponse(responseCode = "409", description = "The seat is held, sold or reserved by a voucher: it cannot be blocked now.", extensions = @Extension(name = ApiDocs.CODES, value = "seat_unavailable"))
    @PATCH
    @Path("/{guid}")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response update(@PathParam("event") String slug, @PathParam("guid") String guid,
            @QueryParam("date_id") String dateId, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @Context Request request, @Valid @NotNull InventoryRequests.SeatChanges changes) {
        return view(seats.update(events.get(slug), QueryParams.id("date_id", dateId), guid,
                IfMatch.required(request, ifMatch), changes, access.channel()));
    }

    private static Response view(InventoryViews.SeatView seat) {
        return Response.ok(seat).header(HttpHeaders.ETAG, IfMatch.etag(seat.version())).build();
    }
}

package io.ticketing.reservations.dates;

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
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.Created;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.locking.TakesLocks;
import io.ticketing.reservations.openapi.ApiDocs;
import io.ticketing.reservations.problem.Problem;

@Tag(name = "Dates")
@Path("/api/v1/events/{event}/dates")
@Idempotent
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class DateResource {

    private final EventService events;
    private final DateService dates;

    DateResource(EventService events, DateService dates) {
        this.events = events;
        this.dates = dates;
    }

    @Operation(operationId = "createDate", summary = "Add a date to an event series", description = "An event becomes a series with its first date, only while no position without a date is held, pending or paid and no waiting-list entry waits or holds an offer; its seats without a date become the first date's.")
    @APIResponseSchema(value = DateView.class, responseCode = "201", responseDescription = "The date")
    @APIResponse(responseCode = "409", description = "The event's first date, while a position without a date is held, pending or paid, or a waiting-list entry waits or holds an offer.", extensions = @Extension(name = ApiDocs.CODES, value = "event_has_sales"))
    @TakesLocks
    @POST
    public Response create(@PathParam("event") String slug, @Valid @NotNull DateRequests.NewDate request) {
        DateView date = dates.create(events.get(slug), request);
        return Created.at("/api/v1/events/" + slug + "/dates/" + date.id())
                .header(HttpHeaders.ETAG, IfMatch.etag(date.version())).entity(date).build();
    }

    @Operation(operationId = "listDates", summary = "List the event's dates", description = "Lists the event's dates in the order they were created, inactive ones too, each with its `prices`; page with `limit` and `cursor`. A read takes no lock.")
    @GET
    public Page<DateView> list(@PathParam("event") String slug, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return dates.list(events.get(slug), PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "getDate", summary = "Read a date", description = "Returns the date with its `prices` by item and the `ETag` a change sends in `If-Match`. A read takes no lock.")
    @APIResponseSchema(value = DateView.class, responseCode = "200", responseDescription = "The date")
    @GET
    @Path("/{date}")
    public Response get(@PathParam("event") String slug, @PathParam("date") long dateId) {
        return view(dates.get(events.get(slug), dateId));
    }

    @Operation(operationId = "updateDate", summary = "Change a date's name, times, whether it is on sale, or its prices", description = "Needs `If-Match`. `active: false` takes the date off sale; in `prices` a price sets an item's price on it and `null` removes it. Takes no lock: passes count on every date, on sale or not.")
    @APIResponseSchema(value = DateView.class, responseCode = "200", responseDescription = "The date as changed")
    @PATCH
    @Path("/{date}")
    public Response update(@PathParam("event") String slug, @PathParam("date") long dateId,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @Context Request request,
            @Valid @NotNull DateRequests.DateChanges changes) {
        return view(dates.update(events.get(slug), dateId, IfMatch.required(request, ifMatch), changes));
    }

    @Operation(operationId = "deleteDate", summary = "Delete a date nothing belongs to or was sold for", description = "Refused (409 `in_use`) while a quota, seat or voucher belongs to it, a live hold or any order names it, or a check-in list does; set `active` to false instead. The seating plan's seats on it go with it.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "409", description = "Quotas, seats or vouchers belong to it, or it was held or sold; deactivate it instead.", extensions = @Extension(name = ApiDocs.CODES, value = "in_use"))
    @DELETE
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Path("/{date}")
    public Response delete(@PathParam("event") String slug, @PathParam("date") long dateId) {
        dates.delete(events.get(slug), dateId);
        return Response.noContent().build();
    }

    private static Response view(DateView date) {
        return Response.ok(date).header(HttpHeaders.ETAG, IfMatch.etag(date.version())).build();
    }
}

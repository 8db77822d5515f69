package io.ticketing.reservations.seating;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
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
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.QueryParams;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.locking.TakesLocks;
import io.ticketing.reservations.openapi.ApiDocs;
import io.ticketing.reservations.problem.Problem;

@Tag(name = "Seats")
@Path("/api/v1/events/{event}/seating_plan")
@Idempotent
@Produces(MediaType.APPLICATION_JSON)
public class SeatingPlanResource {

    private final EventService events;
    private final SeatingPlanService plans;
    private final Access access;
    private final GzippedJson gzipped;

    SeatingPlanResource(EventService events, SeatingPlanService plans, Access access, GzippedJson gzipped) {
        this.gzipped = gzipped;
        this.events = events;
        this.plans = plans;
        this.access = access;
    }

    @Operation(operationId = "putSeatingPlan", summary = "Import a seating plan in pretix's format, or replace the event's", description = "Each plan seat becomes a seat of its category's item, on every date of an event with dates. Seats that stay keep their holds and sales; new ones are made; those that left are deleted. A seat held, in a pending or paid order or bound to a voucher must keep its guid and item, else nothing changes (409 seat_in_use, naming them). If-Match is optional: when sent, it must be the plan's ETag.")
    @APIResponseSchema(value = SeatingPlanView.class, responseCode = "200", responseDescription = "The plan as imported, with its seats (of the first date, in an event with dates)")
    @APIResponse(responseCode = "409", description = "Seats in use would leave the plan or change item.", extensions = @Extension(name = ApiDocs.CODES, value = "seat_in_use"))
    @TakesLocks
    @PUT
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response put(@PathParam("event") String slug, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @Context Request request, @Valid @NotNull SeatingPlanRequest plan) {
        Event event = events.get(slug);
        return view(plans.view(event, plans.put(event, plan, IfMatch.optional(request, ifMatch)), access.channel()));
    }

    @Operation(operationId = "getSeatingPlan", summary = "The seating plan with every seat's place and whether it is free", description = "One response for the whole plan (gzip when the client accepts it: a tenth of the size), so a page draws it with live colours. free: the caller's channel can hold the seat now. In an event with dates, date_id is required.")
    @APIResponseSchema(value = SeatingPlanView.class, responseCode = "200", responseDescription = "The plan and its seats")
    @GET
    @RolesAllowed(Roles.STOREFRONT)
    @SecurityRequirement(name = Roles.STOREFRONT)
    public Response get(@PathParam("event") String slug, @QueryParam("date_id") String dateId,
            @HeaderParam(HttpHeaders.ACCEPT_ENCODING) String acceptEncoding) {
        SeatingPlanView plan = plans.get(events.get(slug), QueryParams.id("date_id", dateId), access.channel());
        return GzippedJson.accepted(acceptEncoding)
                ? gzipped.of(plan).header(HttpHeaders.ETAG, IfMatch.etag(plan.version())).build()
                : view(plan);
    }

    @Operation(operationId = "deleteSeatingPlan", summary = "Delete the seating plan and its seats", description = "Refused while one of its seats is held, in a pending or paid order or bound to a voucher.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "409", description = "Seats in use.", extensions = @Extension(name = ApiDocs.CODES, value = "seat_in_use"))
    @TakesLocks
    @DELETE
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    public Response delete(@PathParam("event") String slug) {
        plans.delete(events.get(slug));
        return Response.noContent().build();
    }

    private static Response view(SeatingPlanView plan) {
        return Response.ok(plan).header(HttpHeaders.ETAG, IfMatch.etag(plan.version())).build();
    }
}

package io.ticketing.reservations.allotment;

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

@Tag(name = "Inventory")
@Path("/api/v1/events/{event}/quotas/{quota}/allotments")
@Idempotent
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class AllotmentResource {

    private final EventService events;
    private final AllotmentService allotments;

    AllotmentResource(EventService events, AllotmentService allotments) {
        this.events = events;
        this.allotments = allotments;
    }

    @Operation(operationId = "createAllotment", summary = "Keep a part of a quota for a sales channel until release_at", description = "The channel sells its allotment's unused part first, then what is left for everyone; every other channel sees the quota less what the allotment keeps. Refused when what is left for everyone cannot cover it.")
    @APIResponseSchema(value = AllotmentView.class, responseCode = "201", responseDescription = "The allotment")
    @APIResponse(responseCode = "409", description = "The quota has an allotment for the channel, or cannot cover it.", extensions = @Extension(name = ApiDocs.CODES, value = "allotment_exists quota_exhausted"))
    @TakesLocks
    @POST
    public Response create(@PathParam("event") String slug, @PathParam("quota") long quotaId,
            @Valid @NotNull AllotmentRequests.NewAllotment request) {
        Allotment allotment = allotments.create(events.get(slug), quotaId, request);
        return Created.at("/api/v1/events/" + slug + "/quotas/" + quotaId + "/allotments/"
                + allotment.id).header(HttpHeaders.ETAG, IfMatch.etag(allotment.version))
                .entity(AllotmentView.of(allotment)).build();
    }

    @Operation(operationId = "listAllotments", summary = "List a quota's allotments, released ones too", description = "Lists the quota's allotments in the order they were made, released ones too; page with `limit` and `cursor`. What each keeps now (`used`, `unused`) is in the quota's availability.")
    @GET
    public Page<AllotmentView> list(@PathParam("event") String slug, @PathParam("quota") long quotaId,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return allotments.list(events.get(slug), quotaId, PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "getAllotment", summary = "Read an allotment", description = "Returns `channel`, `size` and `release_at` with the `ETag` a change sends in `If-Match`; what it keeps now (`used`, `unused`) is in the quota's availability. A read takes no lock.")
    @APIResponseSchema(value = AllotmentView.class, responseCode = "200", responseDescription = "The allotment")
    @GET
    @Path("/{allotment}")
    public Response get(@PathParam("event") String slug, @PathParam("quota") long quotaId,
            @PathParam("allotment") long allotmentId) {
        return view(allotments.get(events.get(slug), quotaId, allotmentId));
    }

    @Operation(operationId = "updateAllotment", summary = "Change what an allotment keeps, or when it releases it", description = "Needs `If-Match`; the channel never changes. Keeping more (a larger `size`, a later or no `release_at`) locks the quota and is refused when what is left for everyone cannot cover it; keeping less frees at once, without a lock.")
    @APIResponseSchema(value = AllotmentView.class, responseCode = "200", responseDescription = "The allotment as changed")
    @APIResponse(responseCode = "409", description = "Keeping more than what is left for everyone can cover.", extensions = @Extension(name = ApiDocs.CODES, value = "quota_exhausted"))
    @TakesLocks
    @PATCH
    @Path("/{allotment}")
    public Response update(@PathParam("event") String slug, @PathParam("quota") long quotaId,
            @PathParam("allotment") long allotmentId, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @Context Request request, @Valid @NotNull AllotmentRequests.AllotmentChanges changes) {
        return view(allotments.update(events.get(slug), quotaId, allotmentId, IfMatch.required(request, ifMatch),
                changes));
    }

    @Operation(operationId = "deleteAllotment", summary = "Delete an allotment: what it kept is on sale to everyone at once", description = "Use it to end a channel's contingent before `release_at`. Takes no lock; what the channel already holds or sold stays its own.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @DELETE
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Path("/{allotment}")
    public Response delete(@PathParam("event") String slug, @PathParam("quota") long quotaId,
            @PathParam("allotment") long allotmentId) {
        allotments.delete(events.get(slug), quotaId, allotmentId);
        return Response.noContent().build();
    }

    private static Response view(Allotment allotment) {
        return Response.ok(AllotmentView.of(allotment)).header(HttpHeaders.ETAG, IfMatch.etag(allotment.version))
                .build();
    }
}

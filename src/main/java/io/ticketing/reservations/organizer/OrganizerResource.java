package io.ticketing.reservations.organizer;

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
import io.ticketing.reservations.http.Created;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.openapi.ApiDocs;
import io.ticketing.reservations.problem.Problem;

@Tag(name = "Organizers")
@Path("/api/v1/organizers")
@Idempotent
@Produces(MediaType.APPLICATION_JSON)
public class OrganizerResource {

    private final OrganizerService organizers;

    OrganizerResource(OrganizerService organizers) {
        this.organizers = organizers;
    }

    @Operation(operationId = "createOrganizer", summary = "Create an organizer (platform tokens only)", description = "Use it to onboard a tenant; its `web` channel is made with it, and its `slug` never changes. Then create its API tokens (`POST .../tokens`) so it can manage its own events.")
    @APIResponseSchema(value = OrganizerView.class, responseCode = "201", responseDescription = "The organizer")
    @APIResponse(responseCode = "409", description = "An organizer with this slug exists.", extensions = @Extension(name = ApiDocs.CODES, value = "slug_taken"))
    @POST
    @RolesAllowed(Roles.PLATFORM)
    @SecurityRequirement(name = Roles.PLATFORM)
    public Response create(@Valid @NotNull OrganizerRequests.NewOrganizer request) {
        Organizer organizer = organizers.create(request);
        return Created.at("/api/v1/organizers/" + organizer.slug)
                .header(HttpHeaders.ETAG, IfMatch.etag(organizer.version)).entity(OrganizerView.of(organizer))
                .build();
    }

    @Operation(operationId = "listOrganizers", summary = "List organizers, oldest first (platform tokens only)", description = "Lists every organizer in the order they were made; page with `limit` and `cursor`. An organizer's token gets 403; a read takes no lock.")
    @GET
    @RolesAllowed(Roles.PLATFORM)
    @SecurityRequirement(name = Roles.PLATFORM)
    public Page<OrganizerView> list(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return organizers.list(PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "getOrganizer", summary = "Read an organizer", description = "Use it to check an organizer before a rename: its `ETag` goes in `If-Match`. Platform tokens only (an organizer's token gets 403); a read takes no lock.")
    @APIResponseSchema(value = OrganizerView.class, responseCode = "200", responseDescription = "The organizer")
    @GET
    @Path("/{organizer}")
    @RolesAllowed(Roles.PLATFORM)
    @SecurityRequirement(name = Roles.PLATFORM)
    public Response get(@PathParam("organizer") String slug) {
        return view(organizers.get(slug));
    }

    @Operation(operationId = "updateOrganizer", summary = "Rename an organizer (platform tokens only)", description = "Needs `If-Match` with the organizer's `ETag`. Only `name` changes: events and tokens name the organizer by its `slug`.")
    @APIResponseSchema(value = OrganizerView.class, responseCode = "200", responseDescription = "The organizer as changed")
    @PATCH
    @Path("/{organizer}")
    @RolesAllowed(Roles.PLATFORM)
    @SecurityRequirement(name = Roles.PLATFORM)
    public Response update(@PathParam("organizer") String slug, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @Context Request request, @Valid @NotNull OrganizerRequests.OrganizerChanges changes) {
        return view(organizers.update(slug, IfMatch.required(request, ifMatch), changes));
    }

    @Operation(operationId = "createToken", summary = "Create an API token of the organizer; its secret is shown once", description = "Use it to give a shop, box office or door scanner its own credential: `scope` (`admin`, `storefront` or `checkin`), optional `events`, `expires_at` and `channel` (default `web`). Only a hash of `token` is kept; an `Idempotency-Key` replay answers `token` null.")
    @APIResponseSchema(value = TokenView.class, responseCode = "201", responseDescription = "The token, with its secret in `token`: keep it, it is never shown again")
    @POST
    @Path("/{organizer}/tokens")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response createToken(@PathParam("organizer") String slug,
            @Valid @NotNull OrganizerRequests.NewToken request) {
        TokenView token = organizers.createToken(slug, request);
        return Created.at("/api/v1/organizers/" + slug + "/tokens/" + token.id()).entity(token)
                .build();
    }

    @Operation(operationId = "listTokens", summary = "List the organizer's tokens in use, without their secrets", description = "Lists the tokens not revoked, oldest first, with `prefix` and `last_used_at` (at most a minute behind) to tell them apart, never the secret. Page with `limit` and `cursor`.")
    @GET
    @Path("/{organizer}/tokens")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Page<TokenView> tokens(@PathParam("organizer") String slug, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return organizers.tokens(slug, PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "revokeToken", summary = "Revoke a token: refused by every replica within two seconds", description = "Use it to rotate: create a new token, move to it, then revoke the old one. An availability stream opened with the revoked token ends at its next reading.")
    @APIResponse(responseCode = "204", description = "Revoked")
    @DELETE
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Path("/{organizer}/tokens/{token}")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response revoke(@PathParam("organizer") String slug, @PathParam("token") long tokenId) {
        organizers.revoke(slug, tokenId);
        return Response.noContent().build();
    }

    private static Response view(Organizer organizer) {
        return Response.ok(OrganizerView.of(organizer)).header(HttpHeaders.ETAG, IfMatch.etag(organizer.version))
                .build();
    }
}

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

@Tag(name = "Channels")
@Path("/api/v1/organizers/{organizer}/channels")
@Idempotent
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = Roles.ADMIN)
public class ChannelResource {

    private final ChannelService channels;

    ChannelResource(ChannelService channels) {
        this.channels = channels;
    }

    @Operation(operationId = "createChannel", summary = "Create a sales channel of the organizer (a box office, a reseller)", description = "Use it before making tokens, items, seats or allotments that name the channel by its `slug`, which is unique in the organizer and never changes. Every organizer already has `web`.")
    @APIResponseSchema(value = ChannelView.class, responseCode = "201", responseDescription = "The channel")
    @APIResponse(responseCode = "409", description = "The organizer has a channel with this slug.", extensions = @Extension(name = ApiDocs.CODES, value = "slug_taken"))
    @POST
    public Response create(@PathParam("organizer") String organizer,
            @Valid @NotNull ChannelRequests.NewChannel request) {
        Channel channel = channels.create(organizer, request);
        return Created.at("/api/v1/organizers/" + organizer + "/channels/" + channel.slug)
                .header(HttpHeaders.ETAG, IfMatch.etag(channel.version)).entity(ChannelView.of(channel)).build();
    }

    @Operation(operationId = "listChannels", summary = "List the organizer's channels, oldest first (web first)", description = "Lists the organizer's channels in the order they were made, `web` first; page with `limit` and `cursor`. For the organizer's admin tokens and the platform's; a read takes no lock.")
    @GET
    public Page<ChannelView> list(@PathParam("organizer") String organizer, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return channels.list(organizer, PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "getChannel", summary = "Read a channel", description = "Returns the channel's `slug`, `name` and the `ETag` a rename sends in `If-Match`. A read takes no lock.")
    @APIResponseSchema(value = ChannelView.class, responseCode = "200", responseDescription = "The channel")
    @GET
    @Path("/{channel}")
    public Response get(@PathParam("organizer") String organizer, @PathParam("channel") String slug) {
        return view(channels.get(organizer, slug));
    }

    @Operation(operationId = "updateChannel", summary = "Rename a channel; its slug never changes", description = "Needs `If-Match` with the channel's `ETag`. Only `name` changes: tokens, items, seats, carts and orders name the channel by its `slug`.")
    @APIResponseSchema(value = ChannelView.class, responseCode = "200", responseDescription = "The channel as changed")
    @PATCH
    @Path("/{channel}")
    public Response update(@PathParam("organizer") String organizer, @PathParam("channel") String slug,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @Context Request request,
            @Valid @NotNull ChannelRequests.ChannelChanges changes) {
        return view(channels.update(organizer, slug, IfMatch.required(request, ifMatch), changes));
    }

    @Operation(operationId = "deleteChannel", summary = "Delete a channel nothing names and nothing was sold in", description = "Refused (409 `in_use`) for `web`, and for a channel that a token in use, an item, a seat or an allotment names, or that any cart or order was sold in: its slug stays history in those orders.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "409", description = "The web channel, or one a token, item or seat names or that sold something.", extensions = @Extension(name = ApiDocs.CODES, value = "in_use"))
    @DELETE
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
    @Path("/{channel}")
    public Response delete(@PathParam("organizer") String organizer, @PathParam("channel") String slug) {
        channels.delete(organizer, slug);
        return Response.noContent().build();
    }

    private static Response view(Channel channel) {
        return Response.ok(ChannelView.of(channel)).header(HttpHeaders.ETAG, IfMatch.etag(channel.version)).build();
    }
}

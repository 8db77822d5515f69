package io.ticketing.reservations.availability;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseHeader;
import org.jboss.resteasy.reactive.RestStreamElementType;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.ticketing.reservations.auth.Access;
import io.ticketing.reservations.auth.ApiTokens;
import io.ticketing.reservations.auth.Caller;
import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.QueryParams;
import io.ticketing.reservations.inventory.InventoryViews.EventAvailability;

@Tag(name = "Inventory")
@Path("/api/v1/events/{event}/availability/stream")
@RolesAllowed(Roles.STOREFRONT)
@SecurityRequirement(name = Roles.STOREFRONT)
public class AvailabilityStreamResource {

    private final EventService events;
    private final AvailabilityStreams streams;
    private final Access access;
    private final ApiTokens tokens;

    AvailabilityStreamResource(EventService events, AvailabilityStreams streams, Access access, ApiTokens tokens) {
        this.events = events;
        this.streams = streams;
        this.access = access;
        this.tokens = tokens;
    }

    @Operation(operationId = "streamAvailability", summary = "What each active item has left, live", description = "Server-sent events: the body of `GET /availability` (of one date, with `date_id`) at once, then again within a second of any change, on any replica. A browser's EventSource cannot send headers: pass the storefront token as the `access_token` query parameter instead.")
    @Parameter(name = "access_token", in = ParameterIn.QUERY, description = "The storefront token, for clients that cannot send an Authorization header (RFC 6750 section 2.3); never logged.", schema = @Schema(type = SchemaType.STRING))
    @GET
    @Blocking
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    // A proxy that buffers the stream (nginx, and so ingress-nginx, unless told not to) would hold each reading back.
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    public Multi<EventAvailability> stream(@PathParam("event") String slug, @QueryParam("date_id") String dateId) {
        Caller caller = access.caller().orElseThrow();
        // A token revoked (or expired) while its stream is open gets no reading after that: the stream ends.
        return streams.subscribe(events.get(slug), QueryParams.id("date_id", dateId), caller.channel()).select()
                .first(reading -> tokens.stillAdmits(caller));
    }
}

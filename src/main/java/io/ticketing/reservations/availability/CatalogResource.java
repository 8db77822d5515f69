package io.ticketing.reservations.availability;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.ticketing.reservations.auth.Access;
import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.QueryParams;
import io.ticketing.reservations.inventory.InventoryViews;

@Tag(name = "Inventory")
@Path("/api/v1/events/{event}/catalog")
@RolesAllowed(Roles.STOREFRONT)
@SecurityRequirement(name = Roles.STOREFRONT)
@Produces(MediaType.APPLICATION_JSON)
public class CatalogResource {

    private final EventService events;
    private final StorefrontAvailability storefront;
    private final Access access;

    CatalogResource(EventService events, StorefrontAvailability storefront, Access access) {
        this.events = events;
        this.storefront = storefront;
        this.access = access;
    }

    @Operation(operationId = "getCatalog", summary = "Everything a ticket page shows: active items, prices and what is left (on one date, with date_id)", description = "available_number as in GET /availability: what the caller's channel could add now.")
    @GET
    public InventoryViews.Catalog catalog(@PathParam("event") String slug, @QueryParam("date_id") String dateId) {
        return storefront.catalog(events.get(slug), QueryParams.id("date_id", dateId), access.channel());
    }
}

package io.ticketing.reservations.order;

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

import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.QueryParams;

@Tag(name = "Orders")
@Path("/api/v1/events/{event}/sales")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = Roles.ADMIN)
public class SalesResource {

    private final EventService events;
    private final SalesReport sales;

    SalesResource(EventService events, SalesReport sales) {
        this.events = events;
        this.sales = sales;
    }

    @Operation(operationId = "getSales", summary = "Sales over time: positions and revenue per hour or day, by channel, item and date", description = "Orders placed in [from, to) (UTC periods); pending and paid ones count, canceled ones are in columns of their own. group_by lists some of channel, item, date, comma separated; a column not grouped by is null.")
    @GET
    public SalesReport.Report sales(@PathParam("event") String slug, @QueryParam("group_by") String groupBy,
            @QueryParam("interval") String interval, @QueryParam("from") String from, @QueryParam("to") String to) {
        return sales.of(events.get(slug), groupBy, interval, QueryParams.instant("from", from),
                QueryParams.instant("to", to));
    }
}

package io.ticketing.reservations.inventory;

import java.net.URI;

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
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.ticketing.reservations.auth.RequiresScope;
import io.ticketing.reservations.auth.Scope;
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.idempotency.Idempotent;

@Path("/api/v1/events/{event}/vouchers")
@Idempotent
@RequiresScope(Scope.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class VoucherResource {

    private final EventService events;
    private final VoucherService vouchers;

    VoucherResource(EventService events, VoucherService vouchers) {
        this.events = events;
        this.vouchers = vouchers;
    }

    @POST
    public Response create(@PathParam("event") String slug, @Valid @NotNull InventoryRequests.NewVoucher request) {
        Voucher voucher = vouchers.create(events.get(slug), request);
        return Response.created(URI.create("/api/v1/events/" + slug + "/vouchers/" + voucher.code))
                .header(HttpHeaders.ETAG, IfMatch.etag(voucher.version))
                .entity(InventoryViews.VoucherView.of(voucher, request.seatGuid())).build();
    }

    @GET
    public Page<InventoryViews.VoucherView> list(@PathParam("event") String slug, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return vouchers.list(events.get(slug), PageRequest.of(limit, cursor));
    }

    @GET
    @Path("/{code}")
    public Response get(@PathParam("event") String slug, @PathParam("code") String code) {
        return view(vouchers.get(events.get(slug), code));
    }

    @PATCH
    @Path("/{code}")
    public Response update(@PathParam("event") String slug, @PathParam("code") String code,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @Valid @NotNull InventoryRequests.VoucherChanges changes) {
        long expected = IfMatch.expectedVersion(ifMatch);
        return view(vouchers.update(events.get(slug), code, expected, changes));
    }

    @DELETE
    @Path("/{code}")
    public Response delete(@PathParam("event") String slug, @PathParam("code") String code) {
        vouchers.delete(events.get(slug), code);
        return Response.noContent().build();
    }

    private Response view(Voucher voucher) {
        return Response.ok(InventoryViews.VoucherView.of(voucher, vouchers.seatGuid(voucher)))
                .header(HttpHeaders.ETAG, IfMatch.etag(voucher.version)).build();
    }
}

package io.ticketing.reservations.inventory;

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

@Tag(name = "Vouchers")
@Path("/api/v1/events/{event}/vouchers")
@Idempotent
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class VoucherResource {

    private final EventService events;
    private final VoucherService vouchers;

    VoucherResource(EventService events, VoucherService vouchers) {
        this.events = events;
        this.vouchers = vouchers;
    }

    @TakesLocks
    @Operation(operationId = "createVoucher", summary = "Create a voucher", description = "Use it for promo codes, reserved seats or held-back contingents: restrict it to an `item_id` or `quota_id`, or bind it to a `seat_guid`. With `block_quota` or a seat it locks what it takes and is refused unless that is free; `max_usages` defaults to 1.")
    @APIResponseSchema(value = InventoryViews.VoucherView.class, responseCode = "201", responseDescription = "The voucher")
    @APIResponse(responseCode = "409", description = "The code is taken, or what the voucher would block or hold is not free.", extensions = @Extension(name = ApiDocs.CODES, value = "voucher_code_taken quota_exhausted seat_unavailable"))
    @POST
    public Response create(@PathParam("event") String slug, @Valid @NotNull InventoryRequests.NewVoucher request) {
        Voucher voucher = vouchers.create(events.get(slug), request);
        return Created.at("/api/v1/events/" + slug + "/vouchers/" + voucher.code)
                .header(HttpHeaders.ETAG, IfMatch.etag(voucher.version))
                .entity(InventoryViews.VoucherView.of(voucher, request.seatGuid())).build();
    }

    @Operation(operationId = "listVouchers", summary = "List the event's vouchers", description = "Lists the event's vouchers in the order they were created, waiting-list offers included, with `redeemed` beside `max_usages`. Page with `limit` and `cursor`; a read takes no lock.")
    @GET
    public Page<InventoryViews.VoucherView> list(@PathParam("event") String slug, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return vouchers.list(events.get(slug), PageRequest.of(limit, cursor));
    }

    @Operation(operationId = "getVoucher", summary = "Read a voucher by code (ignoring case)", description = "Use it to check a code a buyer reports: `redeemed`, `max_usages` and `valid_until` say what is left, and its `ETag` goes in `If-Match` for a change. A read takes no lock.")
    @APIResponseSchema(value = InventoryViews.VoucherView.class, responseCode = "200", responseDescription = "The voucher")
    @GET
    @Path("/{code}")
    public Response get(@PathParam("event") String slug, @PathParam("code") String code) {
        return view(vouchers.get(events.get(slug), code));
    }

    @TakesLocks
    @Operation(operationId = "updateVoucher", summary = "Change a voucher's uses, expiry or blocking", description = "Needs `If-Match`. A change that takes capacity (more uses of a blocking voucher, `block_quota` on, a later `valid_until`) is locked and refused rather than oversell; `max_usages` cannot go below the uses redeemed or held. `valid_until: null` removes the expiry.")
    @APIResponseSchema(value = InventoryViews.VoucherView.class, responseCode = "200", responseDescription = "The voucher as changed")
    @APIResponse(responseCode = "409", description = "What the change would take is not free, or max_usages would go below the uses redeemed or held.", extensions = @Extension(name = ApiDocs.CODES, value = "quota_exhausted seat_unavailable in_use"))
    @PATCH
    @Path("/{code}")
    public Response update(@PathParam("event") String slug, @PathParam("code") String code,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @Context Request request,
            @Valid @NotNull InventoryRequests.VoucherChanges changes) {
        return view(vouchers.update(events.get(slug), code, IfMatch.required(request, ifMatch), changes));
    }

    @Operation(operationId = "deleteVoucher", summary = "Delete a voucher nothing was held, sold or redeemed with", description = "Refused (409 `in_use`) once it is held in a cart, redeemed, or is a waiting-list offer; end it with `valid_until` instead. Deleting a blocking voucher frees what it blocked at once; it takes no lock.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "409", description = "Held in a cart or used in an order.", extensions = @Extension(name = ApiDocs.CODES, value = "in_use"))
    @DELETE
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE})
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

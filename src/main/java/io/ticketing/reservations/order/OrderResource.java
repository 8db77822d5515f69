package io.ticketing.reservations.order;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
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
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.http.Created;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.http.PersonalData;
import io.ticketing.reservations.http.QueryParams;
import io.ticketing.reservations.idempotency.DecidedInBatches;
import io.ticketing.reservations.idempotency.Idempotent;
import io.ticketing.reservations.locking.TakesLocks;
import io.ticketing.reservations.openapi.ApiDocs;
import io.ticketing.reservations.waitingroom.WaitingRoom;

@Tag(name = "Orders")
@Path("/api/v1/events/{event}/orders")
@Idempotent
@Produces(MediaType.APPLICATION_JSON)
@PersonalData
public class OrderResource {

    private final EventService events;
    private final OrderService orders;
    private final OrderSearch search;
    private final WaitingRoom waitingRoom;
    private final OrderChanges changes;
    private final Transfers transfers;

    OrderResource(EventService events, OrderService orders, OrderSearch search, WaitingRoom waitingRoom,
            OrderChanges changes, Transfers transfers) {
        this.changes = changes;
        this.transfers = transfers;
        this.waitingRoom = waitingRoom;
        this.events = events;
        this.orders = orders;
        this.search = search;
    }

    @Operation(operationId = "checkout", summary = "Turn a cart into a pending order", description = "Called by the checkout page when the buyer confirms, before payment: live holds carry over, expired ones are re-checked under the locks. The order is `pending` until `expires` (`payment_term_seconds` from now); vouchers are redeemed, the cart is gone.")
    @APIResponseSchema(value = OrderView.class, responseCode = "201", responseDescription = "The order; its code is its credential")
    @APIResponse(responseCode = "409", description = "The cart is empty, or an expired hold is no longer free.", extensions = @Extension(name = ApiDocs.CODES, value = ApiDocs.SOLD_OUT
            + " cart_empty"))
    @TakesLocks
    @POST
    @DecidedInBatches
    @RolesAllowed(Roles.STOREFRONT)
    @SecurityRequirement(name = Roles.STOREFRONT)
    public Response checkout(@PathParam("event") String slug,
            @HeaderParam(WaitingRoom.HEADER) String admission, @Valid @NotNull Checkout request) {
        Event event = waitingRoom.admitted(slug, admission, request.cartId());
        return orders.checkout(event, request,
                placed -> Created.at("/api/v1/events/" + slug + "/orders/" + placed.order().code())
                        .entity(orders.view(event, placed)).build());
    }

    /** Newest first; {@code email} ignores case. */
    @Operation(operationId = "listOrders", summary = "Find orders, newest first", description = "Use it in the admin to find a buyer's orders: filter by `status`, `email` (ignoring case), `created_after` and `created_before`; page with `limit` and `cursor`. Rows are summaries without positions or ticket secrets; a read takes no lock.")
    @GET
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Page<OrderSearch.OrderSummary> list(@PathParam("event") String slug, @QueryParam("status") String status,
            @QueryParam("email") String email, @QueryParam("created_after") String createdAfter,
            @QueryParam("created_before") String createdBefore, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        OrderSearch.Filter filter = new OrderSearch.Filter(status, email,
                QueryParams.instant("created_after", createdAfter),
                QueryParams.instant("created_before", createdBefore));
        return search.list(events.get(slug), filter, PageRequest.of(limit, cursor));
    }

    /**
     * The code is the order's credential, so a storefront may read any order whose code it holds. The ETag is its
     * version, which a change must send back.
     */
    @Operation(operationId = "getOrder", summary = "Read an order by its code", description = "Called by the confirmation page or a buyer's order link: the order `code` is the credential, so a storefront token reads any order whose code it holds. The answer carries the tickets' `secret`s; its `ETag` is the `version` an order change sends in `If-Match`.")
    @APIResponseSchema(value = OrderView.class, responseCode = "200", responseDescription = "The order")
    @GET
    @Path("/{code}")
    @RolesAllowed(Roles.STOREFRONT)
    @SecurityRequirement(name = Roles.STOREFRONT)
    public Response get(@PathParam("event") String slug, @PathParam("code") String code) {
        Event event = events.get(slug);
        return withVersion(orders.view(event, orders.get(event, code)));
    }

    @Operation(operationId = "changeOrder", summary = "Change a pending or paid order's positions, all or nothing", description = "Operations in order: `change_seat` (position_id, seat_guid), `change_item` (position_id, item_id), `add` (item_id, seat_guid?, voucher_code?) and `cancel_position` (position_id; never the last one). What the order gives up is freed at once; only what it consumes more of is locked and checked. A changed position keeps its id, and its price unless its item changes; a position the change does not name keeps its id, secret and place at the doors, and so does what a changed bundle still brings. A ticket inside on a check-in list cannot be changed or canceled away.")
    @APIResponseSchema(value = OrderView.class, responseCode = "200", responseDescription = "The order as changed, with its new total and version")
    @APIResponse(responseCode = "409", description = "What the change needs is not free, the order is not pending or paid, a position of a bundle was to change alone, or a position it changes or cancels is inside on a check-in list.", extensions = @Extension(name = ApiDocs.CODES, value = ApiDocs.SOLD_OUT
            + " position_bundled position_inside"
            + " order_state"))
    @TakesLocks
    @POST
    @Path("/{code}/changes")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response change(@PathParam("event") String slug, @PathParam("code") String code,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @Context Request request,
            @Valid @NotNull OrderChangeRequest operations) {
        Event event = events.get(slug);
        return withVersion(orders.view(event,
                changes.change(event, code, IfMatch.required(request, ifMatch), operations)));
    }

    @Operation(operationId = "transferPosition", summary = "Give a position (and what its bundle brought) to another buyer", description = "The position leaves its order for a new order of the receiver, in the same status, payment deadline and channel, keeping its item, seat, date, voucher and price, with a new secret: the old ticket no longer scans. Nothing is consumed again; only the receiver's per-buyer limits are locked and checked.")
    @APIResponseSchema(value = OrderView.class, responseCode = "200", responseDescription = "The receiver's new order")
    @APIResponse(responseCode = "403", description = "A buyer_token that is not valid for this event now.", extensions = @Extension(name = ApiDocs.CODES, value = "buyer_unverified"))
    @APIResponse(responseCode = "409", description = "The position is inside the venue, came with a bundle, or its order is not pending or paid; or the receiver would pass a per-buyer limit.", extensions = @Extension(name = ApiDocs.CODES, value = "position_inside position_bundled order_state buyer_required buyer_limit"))
    @TakesLocks
    @POST
    @Path("/{code}/positions/{position}/transfer")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response transfer(@PathParam("event") String slug, @PathParam("code") String code,
            @PathParam("position") long position, @Valid @NotNull TransferRequest receiver) {
        Event event = events.get(slug);
        return withVersion(orders.view(event, transfers.transfer(event, code, position, receiver)));
    }

    @Operation(operationId = "markOrderPaid", summary = "Mark a pending (or expired, if still free) order paid", description = "Called by the payment integration once the payment is confirmed. A pending order becomes paid as it is; an expired one only if its items, seats and vouchers are still free, checked under the locks. Sends the webhook `order.paid`.")
    @APIResponseSchema(value = OrderView.class, responseCode = "200", responseDescription = "The paid order")
    @APIResponse(responseCode = "409", description = "The order is canceled or paid, or it expired and what it held was taken.", extensions = @Extension(name = ApiDocs.CODES, value = ApiDocs.SOLD_OUT
            + " order_state"))
    @TakesLocks
    @POST
    @Path("/{code}/mark_paid")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response markPaid(@PathParam("event") String slug, @PathParam("code") String code) {
        Event event = events.get(slug);
        return Response.ok(orders.view(event, orders.markPaid(event, code))).build();
    }

    @Operation(operationId = "cancelOrder", summary = "Cancel a pending or paid order, freeing what it holds", description = "Use it for a refund or a payment that failed for good. Capacity, seats and voucher uses are free again at once, without a lock (a waiting-list offer's uses stay spent: what they held goes back to the list); sends the webhook `order.canceled`.")
    @APIResponseSchema(value = OrderView.class, responseCode = "200", responseDescription = "The canceled order")
    @APIResponse(responseCode = "409", description = "The order is not pending or paid.", extensions = @Extension(name = ApiDocs.CODES, value = "order_state"))
    @POST
    @Path("/{code}/cancel")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = Roles.ADMIN)
    public Response cancel(@PathParam("event") String slug, @PathParam("code") String code) {
        Event event = events.get(slug);
        return Response.ok(orders.view(event, orders.cancel(event, code))).build();
    }

    private static Response withVersion(OrderView order) {
        return Response.ok(order).header(HttpHeaders.ETAG, IfMatch.etag(order.version())).build();
    }
}

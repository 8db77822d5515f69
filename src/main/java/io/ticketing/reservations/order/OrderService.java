package io.ticketing.reservations.order;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.core.Response;

import io.micrometer.core.instrument.MeterRegistry;
import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.cart.CartRows;
import io.ticketing.reservations.cart.CartService;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.FreedCapacity;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.order.OrderRows.Contents;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.reservation.ClaimBatches;
import io.ticketing.reservations.reservation.Deadlines;
import io.ticketing.reservations.reservation.PositionLabels;
import io.ticketing.reservations.reservation.ReservationConfig;
import io.ticketing.reservations.reservation.Reservations;
import io.ticketing.reservations.webhooks.Webhooks;

/**
 * Orders: checkout turns a cart into a pending order; mark paid, cancel and expire move it on. Only checkout
 * and paying an expired order consume capacity, through {@link Reservations}; the rest free it, unlocked.
 *
 * <p>Vouchers are always changed before the order's status or positions, whose triggers take the items' sales
 * counters: in the same order in every flow, so that a checkout and a cancel cannot deadlock.
 */
@ApplicationScoped
public class OrderService {

    private final CartService carts;
    private final Reservations reservations;
    private final OrderRows rows;
    private final MeterRegistry meters;
    private final Webhooks webhooks;
    private final Deadlines deadlines;
    private final CartRows cartRows;
    private final ClaimBatches batches;
    private final ReservationConfig config;
    private final FreedCapacity freed;

    OrderService(CartService carts, Reservations reservations, OrderRows rows, MeterRegistry meters,
            Webhooks webhooks, Deadlines deadlines, CartRows cartRows, ClaimBatches batches,
            ReservationConfig config, FreedCapacity freed) {
        this.freed = freed;
        this.cartRows = cartRows;
        this.batches = batches;
        this.config = config;
        this.carts = carts;
        this.reservations = reservations;
        this.rows = rows;
        this.meters = meters;
        this.webhooks = webhooks;
        this.deadlines = deadlines;
    }

    /**
     * All or nothing: the cart's valid holds carry over, the stale ones are re-checked under the locks, and
     * the order, its redeemed vouchers and the cart's removal commit together. Decided together with the other
     * checkouts of the event waiting at the same time ({@link ClaimBatches}) unless combining is off; {@code answer}
     * is what the request answers with the order, which a batch records for its {@code Idempotency-Key}.
     */
    public Response checkout(Event event, Checkout request, Function<Contents, Response> answer) {
        return batches.submit(event.id, "checkout", request.cartId(), request, answer,
                batch -> checkoutTogether(event, batch),
                () -> checkoutAlone(event, request));
    }

    /**
     * The checkouts of a batch, in its durable transaction: their carts locked in one round trip, their vouchers
     * redeemed in one voucher order, their orders placed in one round trip. A cart with a stale hold is checked out
     * alone after the batch, since that hold must be re-checked under the locks; so is one the batch could not lock.
     */
    List<ClaimBatches.Outcome<Contents>> checkoutTogether(Event event, List<Checkout> batch) {
        Map<String, CartRows.Contents> locked = cartRows.lockEach(event.id,
                batch.stream().map(Checkout::cartId).toList());
        Instant now = deadlines.now();
        Set<String> ordered = new HashSet<>();
        List<ClaimBatches.Outcome<Contents>> outcomes = new ArrayList<>();
        List<OrderRows.NewOrder> placing = new ArrayList<>();
        for (Checkout request : batch) {
            CartRows.Contents cart = locked.get(request.cartId());
            if (cart == null) {
                outcomes.add(null); // not found, or held by another transaction: checked out alone, after the batch
            } else if (!ordered.add(request.cartId())) {
                outcomes.add(ClaimBatches.Outcome.refused(new NotFoundException("cart", request.cartId())));
            } else if (cart.positions().isEmpty()) {
                outcomes.add(ClaimBatches.Outcome.refused(cartEmpty(cart)));
            } else if (cart.positions().stream().anyMatch(p -> config.needsRecheck(p.expires(), now))) {
                outcomes.add(null);
            } else {
                outcomes.add(ClaimBatches.Outcome.of(null));
                placing.add(new OrderRows.NewOrder(RandomIds.next(), request.email().strip(), cart.cart()));
            }
        }
        if (placing.isEmpty()) {
            return outcomes;
        }
        rows.redeem(placing.stream().flatMap(order -> locked.get(order.cart().id()).positions().stream()).toList());
        Iterator<Contents> placed = rows.placeEach(event.id, placing, deadlines.inSeconds(event.paymentTermSeconds),
                now.truncatedTo(ChronoUnit.MICROS), placing.stream().anyMatch(order -> bundled(
                        locked.get(order.cart().id()))))
                .iterator();
        for (int i = 0; i < outcomes.size(); i++) {
            ClaimBatches.Outcome<Contents> outcome = outcomes.get(i);
            if (outcome != null && outcome.refusal() == null) {
                Contents order = placed.next();
                happened(event, order, "placed");
                outcomes.set(i, ClaimBatches.Outcome.of(order));
            }
        }
        return outcomes;
    }

    /** One checkout in a durable transaction of its own. */
    @DurableTransaction
    Contents checkoutAlone(Event event, Checkout request) {
        CartRows.Contents cart = carts.lock(event, request.cartId());
        if (cart.positions().isEmpty()) {
            throw cartEmpty(cart);
        }
        carts.reviveStale(event, cart);
        rows.redeem(cart.positions());
        // The sales counters' rows of the items stay locked from here to the commit, so the order, its positions
        // and the cart's removal go in one round trip.
        Contents placed = rows.place(event.id, RandomIds.next(), request.email().strip(),
                deadlines.inSeconds(event.paymentTermSeconds), deadlines.now().truncatedTo(ChronoUnit.MICROS),
                cart.cart(), bundled(cart));
        happened(event, placed, "placed");
        return placed;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Contents get(Event event, String code) {
        return rows.read(event.id, code).orElseThrow(() -> new NotFoundException("order", code));
    }

    /** A pending order is paid as it is; an expired one only if all it held is still free, under the locks. */
    @DurableTransaction
    public Contents markPaid(Event event, String code) {
        Contents order = lock(event, code);
        switch (order.order().status()) {
            case PENDING -> {
            }
            case EXPIRED -> {
                reservations.reserve(event.id, order.order().holder(),
                        order.positions().stream().map(OrderPosition::claim).toList(), List.of());
                rows.redeem(order.positions());
            }
            default -> throw wrongState(order.order(), "paid");
        }
        Contents paid = rows.setStatus(order, Order.Status.PAID);
        happened(event, paid, "paid");
        return paid;
    }

    /** Frees the order's capacity and gives its vouchers back; takes no inventory lock. */
    @Transactional
    public Contents cancel(Event event, String code) {
        Contents order = lock(event, code);
        Order.Status status = order.order().status();
        if (!status.holdsCapacity()) {
            throw wrongState(order.order(), "canceled");
        }
        return release(event, order, Order.Status.CANCELED);
    }

    /**
     * Expires one order found past its deadline by a lock-free query, if it still is once its row is claimed;
     * returns false when another replica has it or it changed meanwhile.
     */
    @Transactional
    public boolean expireIfDue(long orderId) {
        Optional<Contents> due = rows.claimDue(orderId);
        due.ifPresent(order -> release(Event.findById(order.order().eventId()), order, Order.Status.EXPIRED));
        return due.isPresent();
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public OrderView view(Event event, Contents contents) {
        return view(event, contents, true);
    }

    /** {@code withSecrets}: false for what leaves to other systems (webhooks), which must never carry a ticket. */
    OrderView view(Event event, Contents contents, boolean withSecrets) {
        Order order = contents.order();
        List<OrderPosition> positions = contents.positions();
        PositionLabels labels = PositionLabels.of(positions);
        return new OrderView(order.code(), order.status().value(), order.email(), order.buyer(), order.channel(),
                event.currency,
                labels.total().toPlainString(), order.expires(), order.createdAt(),
                positions.stream().map(p -> new OrderView.Position(p.id(), p.itemId(), labels.seatGuid(p),
                        labels.voucherCode(p), p.price().toPlainString(), p.dateId(), p.bundledIn(),
                        withSecrets ? p.secret().value() : null)).toList(),
                order.version());
    }

    private Contents release(Event event, Contents order, Order.Status status) {
        rows.giveBack(order.positions());
        Contents released = rows.setStatus(order, status);
        happened(event, released, status.value());
        freed.of(event);
        return released;
    }

    private Contents lock(Event event, String code) {
        return rows.lock(event.id, code).orElseThrow(() -> new NotFoundException("order", code));
    }

    /** Counts the change and writes its webhook ({@code order.placed}, ...) in the same transaction. */
    private void happened(Event event, Contents order, String outcome) {
        meters.counter("inventory.orders", "outcome", outcome).increment();
        webhooks.publish("order." + outcome, () -> view(event, order, false));
    }

    /** Whether the cart holds what a bundle brought, whose order position must point at its bundle's. */
    private static boolean bundled(CartRows.Contents cart) {
        return cart.positions().stream().anyMatch(position -> position.bundledIn() != null);
    }

    private static ApiException cartEmpty(CartRows.Contents cart) {
        return new ApiException(409, "cart_empty", "Conflict",
                "Cart " + cart.cart().id() + " has no positions to order.");
    }

    private static ApiException wrongState(Order order, String wanted) {
        return new ApiException(409, "order_state", "Conflict",
                "Order " + order.code() + " is " + order.status().value() + "; it cannot become " + wanted + ".");
    }
}

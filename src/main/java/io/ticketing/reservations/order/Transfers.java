package io.ticketing.reservations.order;

import java.util.List;
import java.util.Objects;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.buyer.BuyerTokens;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.order.OrderRows.Contents;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.reservation.Deadlines;
import io.ticketing.reservations.reservation.Holder;
import io.ticketing.reservations.reservation.ReservationConflict;
import io.ticketing.reservations.reservation.Reservations;
import io.ticketing.reservations.webhooks.Webhooks;

/**
 * A ticket changing hands (contract section 14): a position leaves its order for a new order of the receiver, in the
 * same status, payment deadline and channel, keeping its id, item, seat, date, voucher and price, with a new secret.
 * A bundle's position moves with what it brought. It consumes nothing again (Hi.Events #823: a reassignment at a
 * sold-out event must not ask for capacity), and goes through the one path ({@link Reservations#reserveTransfer}),
 * which locks and checks only the receiver's per-buyer limits.
 *
 * <p>Locks, in order: the order's row (as every change of an order), the receiver's buyer lock with the event's
 * shared lock, then the moving positions' rows (as a scan locks its ticket), so a scan never waits for a transfer
 * that waits for advisory locks.
 */
@ApplicationScoped
public class Transfers {

    /** What {@code order.position_transferred} carries: the order the positions left, them, and the new order. */
    public record PositionTransferred(String fromOrder, List<Long> positions, OrderView order) {
    }

    private final OrderRows rows;
    private final TransferRows transferRows;
    private final Reservations reservations;
    private final BuyerTokens buyers;
    private final Deadlines deadlines;
    private final OrderService orders;
    private final Webhooks webhooks;
    private final MeterRegistry meters;

    Transfers(OrderRows rows, TransferRows transferRows, Reservations reservations, BuyerTokens buyers,
            Deadlines deadlines, OrderService orders, Webhooks webhooks, MeterRegistry meters) {
        this.rows = rows;
        this.transferRows = transferRows;
        this.reservations = reservations;
        this.buyers = buyers;
        this.deadlines = deadlines;
        this.orders = orders;
        this.webhooks = webhooks;
        this.meters = meters;
    }

    /** Moves position {@code positionId} of order {@code code} (and what it brought) to a new order; returns that. */
    @DurableTransaction
    public Contents transfer(Event event, String code, long positionId, TransferRequest request) {
        String buyer = buyers.buyer(event, request.buyer(), request.buyerToken());
        Contents order = rows.lock(event.id, code).orElseThrow(() -> new NotFoundException("order", code));
        Order.Status status = order.order().status();
        if (!status.holdsCapacity()
                || status == Order.Status.PENDING && order.order().expires().isBefore(deadlines.now())) {
            throw new ApiException(409, "order_state", "Conflict", "Order " + code + " is " + status.value()
                    + (status == Order.Status.PENDING ? ", past its payment deadline" : "")
                    + "; only a position of a paid order, or of a pending one within its deadline, can be"
                    + " transferred.");
        }
        OrderPosition position = order.positions().stream().filter(p -> p.id() == positionId).findFirst()
                .orElseThrow(() -> new NotFoundException("order position", positionId));
        if (position.bundledIn() != null) {
            throw ReservationConflict.bundled(position.id(), position.bundledIn());
        }
        List<OrderPosition> moving = order.positions().stream()
                .filter(p -> p.id() == positionId || Objects.equals(p.bundledIn(), positionId)).toList();
        List<Long> ids = moving.stream().map(OrderPosition::id).toList();
        String received = RandomIds.next();
        List<Long> moved = reservations.reserveTransfer(event.id, new Holder(buyer, order.order().channel()),
                order.order().holder(), moving.stream().map(OrderPosition::claim).toList(),
                transferRows.lockMoving(order.order().id(), ids),
                claims -> transferRows.move(order.order().id(), ids, received, request.email().strip(), buyer));
        if (moved.size() != ids.size()) {
            throw ReservationConflict.positionInside(transferRows.inside(ids).orElseThrow());
        }
        rows.raiseVersion(order.order().id());
        Contents receiver = rows.read(event.id, received).orElseThrow();
        meters.counter("inventory.orders", "outcome", "transferred").increment();
        webhooks.publish("order.position_transferred",
                () -> new PositionTransferred(code, ids, orders.view(event, receiver, false)));
        return receiver;
    }
}

package io.ticketing.reservations.order;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.FreedCapacity;
import io.ticketing.reservations.inventory.InventoryService;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.order.OrderRows.Contents;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;
import io.ticketing.reservations.reservation.Claim;
import io.ticketing.reservations.reservation.ReservationConflict;
import io.ticketing.reservations.reservation.Reservations;

/**
 * Changing a pending or paid order (contract section 9): another seat, another item, one more position, one less, all
 * or nothing, on the order's version. Only the positions it changes are written anew (contract section 3: a ticket is
 * one ticket), each keeping its id and secret; what a changed bundle still brings stays as it is, with its id, secret
 * and place at the doors, and a ticket inside on a check-in list is never changed or canceled away (409
 * {@code position_inside}). {@link Reservations#reserveChange} locks only what the change consumes more of (quotas
 * whose usage grows net, seats it does not take back, vouchers it uses more often), then frees what it gives up (the
 * positions it changes or cancels leave, their counters with them, canceled voucher uses go back), counts, checks and
 * writes the new positions, in one round trip after the locks. A position keeps its price unless its item changes.
 */
@ApplicationScoped
public class OrderChanges {

    /** A position as the change leaves it: its id (null: new), what it claims, and its price (null: its item's). */
    private record Changed(Long id, Claim claim, BigDecimal price) {
    }

    private final OrderRows rows;
    private final OrderChangeRows changeRows;
    private final Reservations reservations;
    private final FreedCapacity freed;
    private final InventoryService inventory;

    OrderChanges(OrderRows rows, OrderChangeRows changeRows, Reservations reservations, FreedCapacity freed,
            InventoryService inventory) {
        this.inventory = inventory;
        this.rows = rows;
        this.changeRows = changeRows;
        this.reservations = reservations;
        this.freed = freed;
    }

    @DurableTransaction
    public Contents change(Event event, String code, IfMatch ifMatch, OrderChangeRequest request) {
        Contents order = rows.lock(event.id, code).orElseThrow(() -> new NotFoundException("order", code));
        ifMatch.check(order.order().version());
        Order.Status status = order.order().status();
        if (!status.holdsCapacity()) {
            throw new ApiException(409, "order_state", "Conflict", "Order " + code + " is " + status.value()
                    + "; only a pending or paid order can be changed.");
        }
        Map<Long, Changed> kept = new LinkedHashMap<>();
        order.positions().forEach(position -> kept.put(position.id(),
                new Changed(position.id(), position.claim(), position.price())));
        Set<Long> inBundles = new HashSet<>();
        order.positions().forEach(position -> {
            if (position.bundledIn() != null) {
                inBundles.add(position.id());
                inBundles.add(position.bundledIn());
            }
        });
        Map<Long, Map<Long, Integer>> brings = inventory.bundlesOf(request.operations().stream()
                .map(OrderChangeRequest.Operation::itemId).filter(Objects::nonNull).toList());
        List<Changed> added = new ArrayList<>();
        List<Long> touched = new ArrayList<>();
        Set<Long> rebundled = new LinkedHashSet<>();
        for (int i = 0; i < request.operations().size(); i++) {
            OrderChangeRequest.Operation op = request.operations().get(i);
            switch (op.kind(i)) {
                case CHANGE_SEAT -> {
                    Changed position = unbundled(kept, op, inBundles, order);
                    Claim claim = position.claim();
                    Seat seat = seat(event, claim.dateId(), op.seatGuid());
                    kept.put(position.id(), new Changed(position.id(),
                            Claim.of(claim.itemId(), seat.id, claim.voucherId(), claim.dateId()), position.price()));
                    touched.add(position.id());
                }
                case CHANGE_ITEM -> {
                    Changed position = position(kept, op);
                    OrderPosition held = heldPosition(order, position.id());
                    if (held.bundledIn() != null) {
                        throw ReservationConflict.bundled(held.id(), held.bundledIn());
                    }
                    // What it brought is decided once its last item is known (below).
                    rebundled.add(position.id());
                    Claim claim = position.claim();
                    kept.put(position.id(), new Changed(position.id(),
                            new Claim(op.itemId(), claim.seatId(), claim.voucherId(), claim.dateId(),
                                    claim.passSeatGuid(), null),
                            null));
                    touched.add(position.id());
                }
                case ADD -> added.add(new Changed(null, Claim.of(op.itemId(),
                        op.seatGuid() == null ? null : seat(event, op.dateId(), op.seatGuid()).id,
                        op.voucherCode() == null ? null : voucher(event, op.voucherCode()).id, op.dateId()), null));
                case CANCEL_POSITION -> {
                    position(kept, op);
                    OrderPosition canceled = heldPosition(order, op.positionId());
                    if (canceled.bundledIn() != null) {
                        throw ReservationConflict.bundled(canceled.id(), canceled.bundledIn());
                    }
                    leaveWithBundle(order, canceled, kept, touched, Map.of());
                    kept.remove(op.positionId());
                    touched.add(op.positionId());
                }
            }
        }
        // Out of a bundle takes what it brought away, into one brings its positions (contract section 9); what the
        // item a position became brings too stays as it is (section 3).
        rebundled.stream().filter(kept::containsKey).forEach(id -> leaveWithBundle(order, heldPosition(order, id),
                kept, touched, brings.getOrDefault(kept.get(id).claim().itemId(), Map.of())));
        if (kept.isEmpty() && added.isEmpty()) {
            throw new ValidationException("operations", "would cancel every position; cancel the order instead");
        }
        List<Long> leaving = touched.stream().distinct().toList();
        List<Changed> written = new ArrayList<>(
                kept.values().stream().filter(position -> leaving.contains(position.id())).toList());
        List<OrderPosition> changedFrom = order.positions().stream()
                .filter(position -> leaving.contains(position.id()) && kept.containsKey(position.id())).toList();
        List<OrderPosition> canceled = order.positions().stream()
                .filter(position -> leaving.contains(position.id()) && !kept.containsKey(position.id())).toList();
        // What a rewritten bundle position still brings stays, by its index among the positions rewritten.
        Map<Integer, Map<Long, Integer>> stillBrought = new HashMap<>();
        for (int i = 0; i < written.size(); i++) {
            long id = written.get(i).id();
            Map<Long, Integer> stays = new HashMap<>();
            order.positions().stream().filter(position -> Objects.equals(position.bundledIn(), id)
                    && kept.containsKey(position.id()) && !leaving.contains(position.id()))
                    .forEach(brought -> stays.merge(brought.claim().itemId(), 1, Integer::sum));
            if (!stays.isEmpty()) {
                stillBrought.put(i, stays);
            }
        }
        List<Claim> changed = written.stream().map(Changed::claim).toList();
        written.addAll(added);

        reservations.reserveChange(event.id, order.order().holder(),
                new Reservations.Rewrite(changed, added.stream().map(Changed::claim).toList(),
                        changedFrom.stream().map(OrderPosition::claim).toList(),
                        canceled.stream().map(OrderPosition::claim).toList(), stillBrought),
                changeRows.freeing(order.order().id(), leaving, canceled),
                claims -> changeRows.writePositions(order.order().id(), written.stream().map(Changed::id).toList(),
                        claims, written.stream().map(Changed::price).toList(), secretsOf(order)));
        // A ticket inside is never changed away (contract section 3): the positions leaving were locked by the
        // statement that removed them, so a scan at a gate went before this read or waits for the change.
        changeRows.firstInside(leaving).ifPresent(inside -> {
            throw ReservationConflict.positionInside(inside);
        });
        rows.redeemClaims(added.stream().map(Changed::claim).toList());
        if (!leaving.isEmpty()) {
            freed.of(event);
        }
        rows.raiseVersion(order.order().id());
        return rows.lock(event.id, code).orElseThrow();
    }

    /**
     * A position that is neither a bundle's nor what a bundle brought: a seat changes only on a position of its own
     * (contract section 10).
     */
    private static Changed unbundled(Map<Long, Changed> kept, OrderChangeRequest.Operation op, Set<Long> inBundles,
            Contents order) {
        Changed position = position(kept, op);
        if (inBundles.contains(position.id())) {
            OrderPosition held = heldPosition(order, position.id());
            throw ReservationConflict.bundled(held.id(), held.bundledIn() == null ? held.id() : held.bundledIn());
        }
        return position;
    }

    /**
     * What the bundle at {@code bundle} brought leaves the order with it (no foreign key takes it: V21), but as many of
     * each item as {@code stillBrings} says the position brings as it becomes: those stay, untouched (contract section
     * 3).
     */
    private static void leaveWithBundle(Contents order, OrderPosition bundle, Map<Long, Changed> kept,
            List<Long> touched, Map<Long, Integer> stillBrings) {
        Map<Long, Integer> staying = new HashMap<>();
        order.positions().stream().filter(position -> Objects.equals(position.bundledIn(), bundle.id())
                && kept.containsKey(position.id())).forEach(brought -> {
                    long item = brought.claim().itemId();
                    if (staying.merge(item, 1, Integer::sum) > stillBrings.getOrDefault(item, 0)) {
                        kept.remove(brought.id());
                        touched.add(brought.id());
                    }
                });
    }

    private static OrderPosition heldPosition(Contents order, long id) {
        return order.positions().stream().filter(position -> position.id() == id).findFirst().orElseThrow();
    }

    /** A changed position keeps its ticket: another seat or item must not void what the buyer holds. */
    private static Map<Long, String> secretsOf(Contents order) {
        Map<Long, String> secrets = new HashMap<>();
        order.positions().forEach(position -> secrets.put(position.id(), position.secret().value()));
        return secrets;
    }

    private static Changed position(Map<Long, Changed> kept, OrderChangeRequest.Operation op) {
        Changed position = kept.get(op.positionId());
        if (position == null) {
            throw new NotFoundException("order position", op.positionId());
        }
        return position;
    }

    private static Seat seat(Event event, Long dateId, String guid) {
        return Seat.findByGuid(event.id, dateId, guid).orElseThrow(() -> new NotFoundException("seat", guid));
    }

    private static Voucher voucher(Event event, String code) {
        return Voucher.findByCode(event.id, code).orElseThrow(() -> ReservationConflict.voucherUnknown(code));
    }
}

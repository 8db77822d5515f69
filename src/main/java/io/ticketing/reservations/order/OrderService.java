package io.ticketing.reservations.order;

import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import io.micrometer.core.instrument.MeterRegistry;
import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.cart.CartService;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.reservation.Deadlines;
import io.ticketing.reservations.reservation.PositionLabels;
import io.ticketing.reservations.reservation.Reservations;
import io.ticketing.reservations.webhooks.Webhooks;

/**
 * Orders: checkout turns a cart into a pending order; mark paid, cancel and expire move it on. Only checkout
 * and paying an expired order consume capacity, through {@link Reservations}; the rest free it, unlocked.
 */
@ApplicationScoped
public class OrderService {

    private static final String REDEEM = "UPDATE vouchers SET redeemed = redeemed + :uses WHERE id = :voucher";
    /** Giving back never goes below 0: an admin may have lowered the count by hand. */
    private static final String GIVE_BACK = """
            UPDATE vouchers SET redeemed = greatest(redeemed - :uses, 0) WHERE id = :voucher""";
    /**
     * The order and its positions, copied from the cart under its row lock, in one statement; the positions in item
     * order, so their ids follow it. Returns the positions.
     */
    private static final String PLACE = """
            WITH placed AS (
              INSERT INTO orders (event_id, code, email, status, expires, created_at)
              VALUES (:event, :code, :email, :status, :expires, :created) RETURNING id)
            INSERT INTO order_positions (order_id, item_id, seat_id, voucher_id, price)
            SELECT placed.id, c.item_id, c.seat_id, c.voucher_id, c.price
            FROM placed CROSS JOIN cart_positions c WHERE c.cart_id = :cart ORDER BY c.item_id, c.id
            RETURNING\s""" + OrderPosition.COLUMNS;
    private static final String DELETE_CART_POSITIONS = "DELETE FROM cart_positions WHERE cart_id = :cart";
    private static final String DELETE_CART = "DELETE FROM carts WHERE id = :cart";
    /** The expiry's claim on one candidate: skip it if another replica has it (double-checked locking). */
    private static final String CLAIM_DUE = """
            SELECT id FROM orders WHERE id = :order AND status = 'pending' AND expires < now()
            FOR UPDATE SKIP LOCKED""";

    private final CartService carts;
    private final Reservations reservations;
    private final EntityManager entityManager;
    private final MeterRegistry meters;
    private final Webhooks webhooks;
    private final Jdbc jdbc;
    private final Deadlines deadlines;

    OrderService(CartService carts, Reservations reservations, EntityManager entityManager, MeterRegistry meters,
            Webhooks webhooks, Jdbc jdbc, Deadlines deadlines) {
        this.deadlines = deadlines;
        this.carts = carts;
        this.reservations = reservations;
        this.entityManager = entityManager;
        this.meters = meters;
        this.webhooks = webhooks;
        this.jdbc = jdbc;
    }

    /** An order with its positions, as a checkout leaves them. */
    public record Placed(Order order, List<OrderPosition> positions) {
    }

    /**
     * All or nothing: the cart's valid holds carry over, the stale ones are re-checked under the locks, and
     * the order, its redeemed vouchers and the cart's removal commit together.
     */
    @DurableTransaction
    public Placed checkout(Event event, Checkout request) {
        CartService.Contents cart = carts.lockWithPositions(event, request.cartId());
        if (cart.positions().isEmpty()) {
            throw new ApiException(409, "cart_empty", "Conflict",
                    "Cart " + cart.cart().id + " has no positions to order.");
        }
        carts.reviveStale(event, cart.positions());
        Order order = new Order();
        order.eventId = event.id;
        order.code = RandomIds.next();
        order.email = request.email().strip();
        order.status = Order.Status.PENDING;
        order.createdAt = deadlines.now().truncatedTo(ChronoUnit.MICROS);
        order.expires = deadlines.inSeconds(event.paymentTermSeconds);
        // Vouchers before the sales counters, the order in which paying and cancelling take them (the status
        // change's trigger runs at flush): taken the other way round, a checkout and a cancel can deadlock.
        changeRedemptions(REDEEM, cart.positions().stream().map(position -> position.voucherId).toList());
        // The sales counters' rows of the items stay locked from here to the commit, so the order, its positions
        // and the cart's removal go in one round trip.
        Jdbc.RoundTrip writes = jdbc.roundTrip();
        Jdbc.Rows<OrderPosition> sold = writes.add(jdbc.statement(PLACE).set("event", event.id)
                .set("code", order.code).set("email", order.email).set("status", order.status.value())
                .set("expires", order.expires).set("created", order.createdAt).set("cart", cart.cart().id)
                .reading(OrderPosition::read));
        writes.add(jdbc.statement(DELETE_CART_POSITIONS).set("cart", cart.cart().id));
        writes.add(jdbc.statement(DELETE_CART).set("cart", cart.cart().id));
        writes.send();
        List<OrderPosition> positions = sold.all().stream().sorted(Comparator.comparing(p -> p.id)).toList();
        order.id = positions.get(0).orderId;
        happened(event, order, "placed");
        return new Placed(order, positions);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Order get(Event event, String code) {
        return Order.findByCode(event.id, code).orElseThrow(() -> new NotFoundException("order", code));
    }

    /** A pending order is paid as it is; an expired one only if all it held is still free, under the locks. */
    @DurableTransaction
    public Order markPaid(Event event, String code) {
        Order order = lock(event, code);
        switch (order.status) {
            case PENDING -> {
            }
            case EXPIRED -> {
                List<OrderPosition> positions = order.positions();
                reservations.reserve(event.id, positions.stream().map(OrderPosition::claim).toList(), List.of());
                changeRedemptions(REDEEM, positions.stream().map(position -> position.voucherId).toList());
            }
            default -> throw wrongState(order, "paid");
        }
        order.status = Order.Status.PAID;
        happened(event, order, "paid");
        return order;
    }

    /** Frees the order's capacity and gives its vouchers back; takes no inventory lock. */
    @Transactional
    public Order cancel(Event event, String code) {
        Order order = lock(event, code);
        if (order.status != Order.Status.PENDING && order.status != Order.Status.PAID) {
            throw wrongState(order, "canceled");
        }
        release(event, order, Order.Status.CANCELED);
        return order;
    }

    /**
     * Expires one order found past its deadline by a lock-free query, if it still is once its row is claimed;
     * returns false when another replica has it or it changed meanwhile.
     */
    @Transactional
    public boolean expireIfDue(long orderId) {
        if (entityManager.createNativeQuery(CLAIM_DUE).setParameter("order", orderId).getResultList().isEmpty()) {
            return false;
        }
        Order order = Order.findById(orderId);
        release(Event.findById(order.eventId), order, Order.Status.EXPIRED);
        return true;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public OrderView view(Event event, Order order) {
        return view(event, order, order.positions());
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public OrderView view(Event event, Placed placed) {
        return view(event, placed.order(), placed.positions());
    }

    private static OrderView view(Event event, Order order, List<OrderPosition> positions) {
        PositionLabels labels = PositionLabels.of(positions);
        return new OrderView(order.code, order.status.value(), order.email, event.currency,
                labels.total().toPlainString(), order.expires, order.createdAt,
                positions.stream().map(p -> new OrderView.Position(p.id, p.itemId, labels.seatGuid(p),
                        labels.voucherCode(p), p.price.toPlainString())).toList(),
                order.version);
    }

    private void release(Event event, Order order, Order.Status status) {
        changeRedemptions(GIVE_BACK, order.positions().stream().map(position -> position.voucherId).toList());
        order.status = status;
        happened(event, order, status.value());
    }

    /** The order's row, locked: a payment and a cancel of one order run one after the other. */
    private Order lock(Event event, String code) {
        return Order.<Order>find("code = ?1 and eventId = ?2", code, event.id).withLock(LockModeType.PESSIMISTIC_WRITE)
                .firstResultOptional().orElseThrow(() -> new NotFoundException("order", code));
    }

    private void changeRedemptions(String update, List<Long> voucherPerPosition) {
        Map<Long, Long> uses = voucherPerPosition.stream().filter(Objects::nonNull)
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        uses.forEach((voucher, count) -> entityManager.createNativeQuery(update).setParameter("uses", count)
                .setParameter("voucher", voucher).executeUpdate());
    }

    /** Counts the change and writes its webhook ({@code order.placed}, ...) in the same transaction. */
    private void happened(Event event, Order order, String outcome) {
        meters.counter("inventory.orders", "outcome", outcome).increment();
        webhooks.publish("order." + outcome, () -> {
            // Flushed first, so the webhook shows the version the order's GET will show after commit.
            entityManager.flush();
            return view(event, order);
        });
    }

    private static ApiException wrongState(Order order, String wanted) {
        return new ApiException(409, "order_state", "Conflict",
                "Order " + order.code + " is " + order.status.value() + "; it cannot become " + wanted + ".");
    }
}

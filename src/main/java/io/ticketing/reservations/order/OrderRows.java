package io.ticketing.reservations.order;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.cart.Cart;
import io.ticketing.reservations.cart.CartRows;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.reservation.Claim;
import io.ticketing.reservations.reservation.HeldPosition;

/** Every statement of the order feature, on plain JDBC, returning records. */
@ApplicationScoped
public class OrderRows {

    private static final String ORDER_COLUMNS = "id, event_id, code, email, status, expires, created_at, version,"
            + " buyer, channel";
    static final String POSITION_COLUMNS = "id, item_id, seat_id, voucher_id, price, order_id, date_id,"
            + " pass_seat_guid, bundled_in, secret";

    /** The orders of a batch of checkouts, inserted in the order they came: the start of both statements below. */
    private static final String PLACING = """
            WITH wanted AS (
              SELECT * FROM unnest(:codes, :emails, :buyers, :carts, :channels)
                WITH ORDINALITY AS w (code, email, buyer, cart_id, channel, n)),
            placed AS (
              INSERT INTO orders (event_id, code, email, status, expires, created_at, buyer, channel)
              SELECT :event, code, email, 'pending', :expires, :created, buyer, channel FROM wanted ORDER BY n
              RETURNING id, code),
            """;
    /**
     * The orders and their positions, copied from their carts under the carts' row locks, in one statement for a
     * whole batch of checkouts: the positions in item order, so their ids follow it and the sales counters' rows
     * are taken in one ordered pass, as by every other flow (several statements, one an order, could deadlock with
     * them). Returns the positions, each with its order's code.
     */
    private static final String PLACE_EACH = PLACING + """
            sold AS (
              INSERT INTO order_positions (order_id, item_id, seat_id, voucher_id, price, date_id, pass_seat_guid)
              SELECT placed.id, c.item_id, c.seat_id, c.voucher_id, c.price, c.date_id, c.pass_seat_guid
              FROM placed JOIN wanted w ON w.code = placed.code JOIN cart_positions c ON c.cart_id = w.cart_id
              ORDER BY c.item_id, c.id
              RETURNING\s"""
            + POSITION_COLUMNS + """
                    )
                    SELECT sold.*, placed.code FROM sold JOIN placed ON placed.id = sold.order_id""";
    /**
     * {@link #PLACE_EACH} for carts with bundles (contract section 10): each position draws its id first, so that what
     * a bundle brought points at the bundle's order position, in the same statement.
     */
    private static final String PLACE_EACH_BUNDLED = PLACING + """
            moving AS (
              SELECT m.*, nextval(pg_get_serial_sequence('order_positions', 'id')) AS new_id FROM (
                SELECT placed.id AS order_id, c.id AS held_id, c.item_id, c.seat_id, c.voucher_id, c.price, c.date_id,
                  c.pass_seat_guid, c.bundled_in
                FROM placed JOIN wanted w ON w.code = placed.code JOIN cart_positions c ON c.cart_id = w.cart_id
                ORDER BY c.item_id, c.id) m),
            sold AS (
              INSERT INTO order_positions (id, order_id, item_id, seat_id, voucher_id, price, date_id, pass_seat_guid,
                bundled_in) OVERRIDING SYSTEM VALUE
              SELECT m.new_id, m.order_id, m.item_id, m.seat_id, m.voucher_id, m.price, m.date_id, m.pass_seat_guid,
                bundle.new_id
              FROM moving m LEFT JOIN moving bundle ON bundle.held_id = m.bundled_in ORDER BY m.new_id
              RETURNING\s"""
            + POSITION_COLUMNS + """
                    )
                    SELECT sold.*, placed.code FROM sold JOIN placed ON placed.id = sold.order_id""";
    private static final String FIND = "SELECT " + ORDER_COLUMNS
            + " FROM orders WHERE code = :code AND event_id = :event";
    /** The order's row, locked: a payment and a cancel of one order run one after the other. */
    private static final String LOCK = FIND + " FOR UPDATE";
    private static final String POSITIONS = "SELECT " + POSITION_COLUMNS + " FROM order_positions"
            + " WHERE order_id = (SELECT id FROM orders WHERE code = :code AND event_id = :event) ORDER BY id";
    /** Its trigger moves the positions between the sales counters (migration V5). */
    private static final String SET_STATUS = "UPDATE orders SET status = :status, version = version + 1"
            + " WHERE id = :id RETURNING " + ORDER_COLUMNS;
    private static final String REDEEM = "UPDATE vouchers SET redeemed = redeemed + :uses WHERE id = :voucher";
    /**
     * Giving back never goes below 0: an admin may have lowered the count by hand. An offer of the waiting list gives
     * nothing back (V18): the capacity goes back to the list, never to whoever holds its code (pretix #1163).
     */
    private static final String GIVE_BACK = """
            UPDATE vouchers SET redeemed = greatest(redeemed - :uses, 0) WHERE id = :voucher AND gives_back""";
    /** A change of an order's positions is an edit of the order: it gets a new version (its ETag). */
    private static final String NEW_VERSION = "UPDATE orders SET version = version + 1 WHERE id = :id";
    private static final String DUE = """
            SELECT id FROM orders WHERE status = 'pending' AND expires < now() ORDER BY expires LIMIT 500""";
    /** The expiry's claim on one candidate: skip it if another replica has it (double-checked locking). */
    private static final String CLAIM_DUE = "SELECT " + ORDER_COLUMNS
            + " FROM orders WHERE id = :id AND status = 'pending' AND expires < now() FOR UPDATE SKIP LOCKED";
    private static final String POSITIONS_BY_ID = "SELECT " + POSITION_COLUMNS
            + " FROM order_positions WHERE order_id = :id ORDER BY id";

    /**
     * The admin's search, newest first by id, which never changes, so paging while orders are placed neither
     * repeats nor skips one that existed at the first page. Each filter adds a fixed condition; values are bound,
     * never spliced.
     */
    private static final String SEARCH = """
            SELECT o.id, o.code, o.status, o.email, o.expires, o.created_at, o.version,
                   (SELECT coalesce(sum(p.price), 0) FROM order_positions p WHERE p.order_id = o.id),
                   (SELECT count(*) FROM order_positions p WHERE p.order_id = o.id)
            FROM orders o WHERE o.event_id = :event AND o.id < :before""";
    private static final Map<String, String> SEARCH_CONDITIONS = Map.of(
            "status", " AND o.status = :status",
            "email", " AND lower(o.email) = lower(:email)",
            "created_after", " AND o.created_at > :created_after",
            "created_before", " AND o.created_at < :created_before");
    private static final String SEARCH_ORDER = " ORDER BY o.id DESC LIMIT :limit";

    /** An order as a search lists it: its total and number of positions, without them. */
    record Found(long id, String code, String status, String email, BigDecimal total, int positions,
            Instant expires, Instant createdAt, long version) {
    }

    /** An order with its positions. */
    public record Contents(Order order, List<OrderPosition> positions) {

        Contents withStatus(Order changed) {
            return new Contents(changed, positions);
        }
    }

    private final Jdbc jdbc;
    private final CartRows cartRows;

    OrderRows(Jdbc jdbc, CartRows cartRows) {
        this.jdbc = jdbc;
        this.cartRows = cartRows;
    }

    /** The cart's positions become the order's; the cart is gone. One round trip. */
    Contents place(long eventId, String code, String email, Instant expires, Instant created, Cart cart,
            boolean bundled) {
        return placeEach(eventId, List.of(new NewOrder(code, email, cart)), expires, created, bundled).get(0);
    }

    /** An order to place from a locked cart. */
    record NewOrder(String code, String email, Cart cart) {
    }

    /**
     * The orders of {@code orders}, placed and their carts removed in one round trip; in the same order.
     * {@code bundled}: whether any of the carts holds what a bundle brought.
     */
    List<Contents> placeEach(long eventId, List<NewOrder> orders, Instant expires, Instant created,
            boolean bundled) {
        String[] codes = orders.stream().map(NewOrder::code).toArray(String[]::new);
        String[] carts = orders.stream().map(order -> order.cart().id()).toArray(String[]::new);
        Jdbc.RoundTrip writes = jdbc.roundTrip();
        Jdbc.Rows<Map.Entry<String, OrderPosition>> sold = writes.add(jdbc
                .statement(bundled ? PLACE_EACH_BUNDLED : PLACE_EACH).set("event", eventId)
                .set("codes", codes).set("emails", orders.stream().map(NewOrder::email).toArray(String[]::new))
                .set("buyers", orders.stream().map(order -> order.cart().buyer()).toArray(String[]::new))
                .set("channels", orders.stream().map(order -> order.cart().channel()).toArray(String[]::new))
                .set("carts", carts).set("expires", expires).set("created", created)
                .reading(row -> Map.entry(row.getString(11), position(row))));
        cartRows.deleteEach(writes, carts);
        writes.send();
        Map<String, List<OrderPosition>> positions = sold.all().stream()
                .sorted(Comparator.comparing(entry -> entry.getValue().id())).collect(Collectors.groupingBy(
                        Map.Entry::getKey, Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
        List<Contents> placed = new ArrayList<>();
        for (NewOrder order : orders) {
            List<OrderPosition> ofOrder = positions.get(order.code());
            placed.add(new Contents(new Order(ofOrder.get(0).orderId(), eventId, order.code(), order.email(),
                    Order.Status.PENDING, expires, created, 0, order.cart().buyer(), order.cart().channel()), ofOrder));
        }
        return placed;
    }

    Optional<Contents> read(long eventId, String code) {
        return withPositions(jdbc.statement(FIND), eventId, code);
    }

    Optional<Contents> lock(long eventId, String code) {
        return withPositions(jdbc.statement(LOCK), eventId, code);
    }

    /** The order in its new status and version. */
    Contents setStatus(Contents contents, Order.Status status) {
        return contents.withStatus(jdbc.statement(SET_STATUS).set("status", status.value())
                .set("id", contents.order().id()).list(OrderRows::order).get(0));
    }

    /** Redeems one use per position that has a voucher; in voucher order, so no two flows deadlock on them. */
    void redeem(List<? extends HeldPosition> positions) {
        changeUses(REDEEM, positions.stream().map(HeldPosition::claim).toList());
    }

    /** {@link #redeem} for claims about to be written (an order change's new positions). */
    void redeemClaims(List<Claim> claims) {
        changeUses(REDEEM, claims);
    }

    void giveBack(List<? extends HeldPosition> positions) {
        changeUses(GIVE_BACK, positions.stream().map(HeldPosition::claim).toList());
    }

    /** {@link #giveBack} as statements, for a flow to send in a round trip of its own making. */
    List<Jdbc.Statement> givingBack(List<? extends HeldPosition> positions) {
        return usesChanged(GIVE_BACK, positions.stream().map(HeldPosition::claim).toList());
    }

    /** A new version (ETag) for the locked order, whose positions changed. */
    void raiseVersion(long orderId) {
        jdbc.statement(NEW_VERSION).set("id", orderId).update();
    }

    /** Pending orders past their deadline, read without a lock, so possibly stale. */
    List<Long> dueCandidates() {
        return jdbc.statement(DUE).list(row -> row.getLong(1));
    }

    /** The order with its row locked if it is still due and no other replica has it. */
    Optional<Contents> claimDue(long orderId) {
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        Jdbc.Rows<Order> order = reads.add(jdbc.statement(CLAIM_DUE).set("id", orderId).reading(OrderRows::order));
        Jdbc.Rows<OrderPosition> positions = reads
                .add(jdbc.statement(POSITIONS_BY_ID).set("id", orderId).reading(OrderRows::position));
        reads.send();
        return order.first().map(found -> new Contents(found, positions.all()));
    }

    /** Orders of the event before the cursor {@code before} that match every filter given. */
    List<Found> search(long eventId, OrderSearch.Filter filter, long before, int limit) {
        Map<String, Object> values = new TreeMap<>();
        putIfPresent(values, "status", filter.status());
        putIfPresent(values, "email", filter.email());
        putIfPresent(values, "created_after", filter.createdAfter());
        putIfPresent(values, "created_before", filter.createdBefore());
        StringBuilder sql = new StringBuilder(SEARCH);
        values.keySet().forEach(name -> sql.append(SEARCH_CONDITIONS.get(name)));
        Jdbc.Statement search = jdbc.statement(sql.append(SEARCH_ORDER).toString()).set("event", eventId)
                .set("before", before).set("limit", limit);
        values.forEach(search::set);
        return search.list(row -> new Found(row.getLong(1), row.getString(2), row.getString(3), row.getString(4),
                row.getBigDecimal(8), row.getInt(9), Jdbc.instant(row, 5), Jdbc.instant(row, 6), row.getLong(7)));
    }

    private static void putIfPresent(Map<String, Object> values, String name, Object value) {
        if (value != null) {
            values.put(name, value);
        }
    }

    private void changeUses(String update, List<Claim> claims) {
        Jdbc.RoundTrip updates = jdbc.roundTrip();
        usesChanged(update, claims).forEach(updates::add);
        updates.send();
    }

    /** One statement per voucher the claims use, by how often, in voucher order: rows taken in one ordered pass. */
    private List<Jdbc.Statement> usesChanged(String update, List<Claim> claims) {
        Map<Long, Long> uses = new TreeMap<>();
        claims.stream().filter(claim -> claim.voucherId() != null)
                .forEach(claim -> uses.merge(claim.voucherId(), 1L, Long::sum));
        List<Jdbc.Statement> statements = new ArrayList<>();
        uses.forEach((voucher, count) -> statements
                .add(jdbc.statement(update).set("uses", count).set("voucher", voucher)));
        return statements;
    }

    private Optional<Contents> withPositions(Jdbc.Statement orderStatement, long eventId, String code) {
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        Jdbc.Rows<Order> order = reads
                .add(orderStatement.set("code", code).set("event", eventId).reading(OrderRows::order));
        Jdbc.Rows<OrderPosition> positions = reads
                .add(jdbc.statement(POSITIONS).set("code", code).set("event", eventId).reading(OrderRows::position));
        reads.send();
        return order.first().map(found -> new Contents(found, positions.all()));
    }

    private static Order order(ResultSet row) throws SQLException {
        return new Order(row.getLong(1), row.getLong(2), row.getString(3), row.getString(4),
                Order.Status.of(row.getString(5)), Jdbc.instant(row, 6), Jdbc.instant(row, 7), row.getLong(8),
                row.getString(9), row.getString(10));
    }

    static OrderPosition position(ResultSet row) throws SQLException {
        return new OrderPosition(row.getLong(1), row.getLong(2), Jdbc.nullableLong(row, 3), Jdbc.nullableLong(row, 4),
                row.getBigDecimal(5), row.getLong(6), Jdbc.nullableLong(row, 7), row.getString(8),
                Jdbc.nullableLong(row, 9), new TicketSecret(row.getString(10)));
    }
}

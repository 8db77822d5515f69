package io.ticketing.reservations.cart;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.reservation.Claim;
import io.ticketing.reservations.reservation.ClaimBatches;

/** Every statement of the cart feature, on plain JDBC, returning records. */
@ApplicationScoped
public class CartRows {

    private static final String CART_COLUMNS = "id, event_id, created_at, expires, buyer, channel";
    /**
     * What a position's view and checks read. Not {@code created_at}, which only extending needs ({@link #lock}): a
     * cart's answer lists all its positions, and each column read is read for every one of them.
     */
    private static final String POSITION_COLUMNS = "id, item_id, seat_id, voucher_id, price, expires, date_id,"
            + " pass_seat_guid, bundled_in";
    /** {@link #POSITION_COLUMNS} of the table named {@code p}. */
    static final String POSITION_COLUMNS_OF_P = "p." + POSITION_COLUMNS.replace(", ", ", p.");

    /**
     * Locks the cart's row for this transaction and moves its deadline to {@code :expires} if that is later: the
     * update is what takes the row lock. Public for the benchmark, which runs it through pgbench.
     */
    public static final String LOCK_EXTENDING = "UPDATE carts SET expires = greatest(expires, :expires)"
            + " WHERE id = :id AND event_id = :event RETURNING " + CART_COLUMNS;

    /** A cart's positions. Public for the benchmark. */
    public static final String OF_CART = "SELECT " + POSITION_COLUMNS
            + " FROM cart_positions WHERE cart_id = :cart ORDER BY id";
    /** {@link #OF_CART} with when each position was made, which bounds how long it may be held. */
    private static final String OF_CART_SINCE = "SELECT " + POSITION_COLUMNS
            + ", created_at FROM cart_positions WHERE cart_id = :cart ORDER BY id";

    /**
     * New holds, with the prices their items have now (on their date, contract section 10), returned. Public for the
     * benchmark.
     */
    public static final String INSERT_ALL = inserting(false, false, false);

    /**
     * {@link #LOCK} for the carts of a batch ({@link ClaimBatches}), in one order so that no two batches deadlock. A
     * cart another transaction holds (its buyer's extend, say) is skipped: its request leaves the batch and waits for
     * it alone, within its own bound.
     */
    private static final String LOCK_EACH = "SELECT " + CART_COLUMNS
            + " FROM carts WHERE id = ANY(:ids) AND event_id = :event ORDER BY id FOR UPDATE SKIP LOCKED";
    private static final String OF_CARTS = "SELECT cart_id, " + POSITION_COLUMNS
            + " FROM cart_positions WHERE cart_id = ANY(:ids) ORDER BY id";
    /** {@link #INSERT_ALL} of claims on dates, at their items' prices on those dates. */
    private static final String INSERT_ALL_DATED = inserting(false, false, true);
    /**
     * {@link #INSERT_ALL} where claims came with a bundle: each position draws its id first, so that what the bundle
     * brought can point at it ({@code bundled_in}), in the same statement. A bundled position costs nothing of its
     * own: its bundle's price covers it.
     */
    private static final String INSERT_ALL_BUNDLED = inserting(false, true, true);

    private static final String INSERT = "INSERT INTO carts (id, event_id, expires, buyer, channel)"
            + " VALUES (:id, :event, :expires, :buyer, :channel) RETURNING " + CART_COLUMNS;
    /**
     * A cart opened with an admission (contract section 8), in one statement with the admission's use: a ticket
     * opens one cart ever, so a second cart with it, even one racing the first, inserts nothing.
     */
    private static final String INSERT_ADMITTED = """
            WITH used AS (UPDATE queue_tickets SET cart_id = :id WHERE id = :ticket AND cart_id IS NULL RETURNING id)
            INSERT INTO carts (id, event_id, expires, buyer, admission_ticket, channel)
            SELECT :id, :event, :expires, :buyer, used.id, :channel FROM used""" + " RETURNING " + CART_COLUMNS;
    private static final String FIND = "SELECT " + CART_COLUMNS + " FROM carts WHERE id = :id AND event_id = :event";
    /**
     * The cart's row lock: two requests on one cart (a double-clicked checkout) run one after the other. Taken
     * before any advisory lock, and no flow takes it after one.
     */
    private static final String LOCK = FIND + " FOR UPDATE";
    /** One statement for all positions: the usage counters are then updated in one ordered pass. */
    private static final String EXTEND_POSITIONS = "UPDATE cart_positions SET expires = :expires WHERE cart_id = :cart";
    private static final String EXTEND = "UPDATE carts SET expires = :expires WHERE id = :cart";
    /**
     * A position and what it brought as a bundle (contract section 10): no foreign key takes those (V21). The cart's
     * row is written too, though nothing in it changes: its new revision tells every replica's {@link KnownCarts} that
     * its positions changed.
     */
    private static final String DELETE_POSITION = """
            WITH revised AS (UPDATE carts SET expires = expires WHERE id = :cart)
            DELETE FROM cart_positions WHERE cart_id = :cart AND (id = :position OR bundled_in = :position)""";
    private static final String DELETE = "DELETE FROM carts WHERE id = :cart";
    private static final String DELETE_EACH_POSITIONS = "DELETE FROM cart_positions WHERE cart_id = ANY(:carts)";
    private static final String DELETE_EACH = "DELETE FROM carts WHERE id = ANY(:carts)";
    /** A cart with all its positions. */
    public record Contents(Cart cart, List<CartPosition> positions) {
    }

    /**
     * The insert of new holds, for one cart or (with {@code :carts}) a batch's, in claim order; with {@code :parents}
     * (the index of each claim's bundle position, or null) when bundles came with them; at the items' prices on the
     * claims' dates when {@code dated} (else the items' own: no date, no date's price to look for).
     */
    static String inserting(boolean batch, boolean bundled, boolean dated) {
        String claims = "unnest(" + (batch ? ":carts, " : "") + ":items, :seats, :vouchers, :dates, :guids"
                + (bundled ? ", :parents" : "") + ") WITH ORDINALITY AS c (" + (batch ? "cart_id, " : "")
                + "item_id, seat_id, voucher_id, date_id, pass_seat_guid" + (bundled ? ", parent" : "") + ", n)";
        String cart = batch ? "c.cart_id" : ":cart";
        String price = dated ? "coalesce(dp.price, i.price)" : "i.price";
        String priced = "JOIN items i ON i.id = c.item_id" + (dated
                ? " LEFT JOIN item_date_prices dp ON dp.date_id = c.date_id AND dp.item_id = c.item_id"
                : "");
        String returning = " ORDER BY c.n RETURNING " + (batch ? "cart_id, " : "") + POSITION_COLUMNS;
        if (!bundled) {
            return "INSERT INTO cart_positions (cart_id, item_id, seat_id, voucher_id, date_id, pass_seat_guid, price,"
                    + " expires) SELECT " + cart + ", c.item_id, c.seat_id, c.voucher_id, c.date_id, c.pass_seat_guid, "
                    + price + ", :expires FROM " + claims + " " + priced + returning;
        }
        return "WITH c AS (SELECT c.*, nextval(pg_get_serial_sequence('cart_positions', 'id')) AS id FROM " + claims
                + ") INSERT INTO cart_positions (id, cart_id, item_id, seat_id, voucher_id, date_id, pass_seat_guid,"
                + " bundled_in, price, expires) OVERRIDING SYSTEM VALUE SELECT c.id, " + cart
                + ", c.item_id, c.seat_id, c.voucher_id, c.date_id, c.pass_seat_guid, p.id,"
                + " CASE WHEN c.parent IS NULL THEN " + price + " ELSE 0 END, :expires FROM c " + priced
                + " LEFT JOIN c p ON p.n = c.parent + 1" + returning;
    }

    /** A position with the cart it is in, as a batch reads and writes them. */
    record Placed(String cartId, CartPosition position) {
    }

    private final Jdbc jdbc;
    private final KnownCarts knownCarts;

    CartRows(Jdbc jdbc, KnownCarts knownCarts) {
        this.jdbc = jdbc;
        this.knownCarts = knownCarts;
    }

    /** In auto-commit, one statement and one round trip; in the transaction of an {@code Idempotency-Key}, in it. */
    Cart insert(String id, long eventId, Instant expires, String buyer, String channel) {
        return jdbc.statement(INSERT).set("id", id).set("event", eventId).set("expires", expires).set("buyer", buyer)
                .set("channel", channel).list(CartRows::cart).get(0);
    }

    /** The cart opened with the admission of {@code ticket}, or empty if that admission opened one already. */
    Optional<Cart> insertAdmitted(String id, long eventId, Instant expires, String buyer, String channel,
            String ticket) {
        return jdbc.statement(INSERT_ADMITTED).set("id", id).set("event", eventId).set("expires", expires)
                .set("buyer", buyer).set("channel", channel).set("ticket", ticket).list(CartRows::cart).stream()
                .findFirst();
    }

    /** The cart and its positions, read together without a lock. */
    Optional<Contents> read(long eventId, String cartId) {
        return both(jdbc.statement(FIND), OF_CART, CartRows::position, eventId, cartId, trip -> {
        });
    }

    /** The cart, its row locked, with its positions and when each was made, in one round trip. */
    public Optional<Contents> lock(long eventId, String cartId) {
        return both(jdbc.statement(LOCK), OF_CART_SINCE, CartRows::positionHeldSince, eventId, cartId, trip -> {
        });
    }

    /**
     * The first round trip of an add to cart: the cart locked with its deadline moved to {@code expires}, its
     * positions for the answer, and what {@code alongside} queues (the reservation's reads before its locks).
     */
    Optional<Contents> lockExtending(long eventId, String cartId, Instant expires,
            Consumer<Jdbc.RoundTrip> alongside) {
        return both(jdbc.statement(LOCK_EXTENDING).set("expires", expires), OF_CART, CartRows::position, eventId,
                cartId, alongside);
    }

    /** Inserts one position per claim, to be sent with the locks; it returns them. */
    Jdbc.Query<CartPosition> insertAll(String cartId, List<Claim> claims, Instant expires) {
        boolean bundled = claims.stream().anyMatch(claim -> claim.bundledIn() != null);
        String insert = bundled ? INSERT_ALL_BUNDLED : dated(claims) ? INSERT_ALL_DATED : INSERT_ALL;
        return claimed(jdbc.statement(insert), claims, bundled).set("cart", cartId).set("expires", expires)
                .reading(CartRows::position);
    }

    static boolean dated(List<Claim> claims) {
        return claims.stream().anyMatch(claim -> claim.dateId() != null);
    }

    /** The claims' columns of {@link #inserting}. */
    static Jdbc.Statement claimed(Jdbc.Statement insert, List<Claim> claims, boolean bundled) {
        insert.set("items", claims.stream().map(Claim::itemId).toArray(Long[]::new))
                .set("seats", claims.stream().map(Claim::seatId).toArray(Long[]::new))
                .set("vouchers", claims.stream().map(Claim::voucherId).toArray(Long[]::new))
                .set("dates", claims.stream().map(Claim::dateId).toArray(Long[]::new))
                .set("guids", claims.stream().map(Claim::passSeatGuid).toArray(String[]::new));
        return bundled ? insert.set("parents", claims.stream().map(Claim::bundledIn).toArray(Integer[]::new)) : insert;
    }

    /**
     * {@link #lock} for a batch's carts (a batch of checkouts), in one round trip: the carts found and not held by
     * another transaction, by id, with their positions.
     */
    public Map<String, Contents> lockEach(long eventId, Collection<String> cartIds) {
        String[] ids = sorted(cartIds);
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        Jdbc.Rows<Cart> carts = reads.add(jdbc.statement(LOCK_EACH).set("ids", ids).set("event", eventId)
                .reading(CartRows::cart));
        Jdbc.Rows<Placed> positions = reads.add(positionsOf(ids));
        reads.send();
        return withPositions(carts.all(), positions.all());
    }

    /** Cart ids once each, in the one order every batch locks carts in, so that no two batches deadlock. */
    static String[] sorted(Collection<String> cartIds) {
        return cartIds.stream().distinct().sorted().toArray(String[]::new);
    }

    /** The positions of the carts {@code ids}, for their answers. */
    Jdbc.Query<Placed> positionsOf(String[] ids) {
        return jdbc.statement(OF_CARTS).set("ids", ids).reading(CartRows::placed);
    }

    /** {@code carts} by id, each with its positions of {@code positions}. */
    static Map<String, Contents> withPositions(List<Cart> carts, List<Placed> positions) {
        Map<String, List<CartPosition>> byCart = positions.stream().collect(Collectors
                .groupingBy(Placed::cartId, Collectors.mapping(Placed::position, Collectors.toList())));
        return carts.stream().collect(Collectors.toMap(Cart::id,
                cart -> new Contents(cart, byCart.getOrDefault(cart.id(), List.of()))));
    }

    /** Every position of the locked cart, and the cart, get {@code expires}. */
    void extend(String cartId, Instant expires) {
        Jdbc.RoundTrip updates = jdbc.roundTrip();
        updates.add(jdbc.statement(EXTEND_POSITIONS).set("expires", expires).set("cart", cartId));
        updates.add(jdbc.statement(EXTEND).set("expires", expires).set("cart", cartId));
        updates.send();
    }

    void deletePosition(String cartId, long positionId) {
        jdbc.statement(DELETE_POSITION).set("position", positionId).set("cart", cartId).update();
    }

    /** The cart and its positions (by the foreign key's cascade). */
    public void delete(String cartId) {
        knownCarts.forget(cartId);
        jdbc.statement(DELETE).set("cart", cartId).update();
    }

    /** Queues the deletion of the carts {@code ids} and their positions (the hold counters' rows in one pass). */
    public void deleteEach(Jdbc.RoundTrip writes, String[] ids) {
        knownCarts.forget(ids);
        writes.add(jdbc.statement(DELETE_EACH_POSITIONS).set("carts", ids));
        writes.add(jdbc.statement(DELETE_EACH).set("carts", ids));
    }

    private Optional<Contents> both(Jdbc.Statement cartStatement, String positionsOfCart,
            Jdbc.RowReader<CartPosition> position, long eventId, String cartId, Consumer<Jdbc.RoundTrip> alongside) {
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        Jdbc.Rows<Cart> cart = reads.add(cartStatement.set("id", cartId).set("event", eventId).reading(CartRows::cart));
        Jdbc.Rows<CartPosition> positions = reads.add(jdbc.statement(positionsOfCart).set("cart", cartId)
                .reading(position));
        alongside.accept(reads);
        reads.send();
        return cart.first().map(found -> new Contents(found, positions.all()));
    }

    static Cart cart(ResultSet row) throws SQLException {
        return new Cart(row.getString(1), row.getLong(2), Jdbc.instant(row, 3), Jdbc.instant(row, 4),
                row.getString(5), row.getString(6));
    }

    static Placed placed(ResultSet row) throws SQLException {
        return new Placed(row.getString(1), position(row, 1));
    }

    private static CartPosition position(ResultSet row) throws SQLException {
        return position(row, 0);
    }

    private static CartPosition positionHeldSince(ResultSet row) throws SQLException {
        return position(row, 0).since(Jdbc.instant(row, 10));
    }

    /** {@link #POSITION_COLUMNS} from column {@code from} + 1 on; when it was made is not read (null). */
    static CartPosition position(ResultSet row, int from) throws SQLException {
        return new CartPosition(row.getLong(from + 1), row.getLong(from + 2), Jdbc.nullableLong(row, from + 3),
                Jdbc.nullableLong(row, from + 4), row.getBigDecimal(from + 5), Jdbc.instant(row, from + 6), null,
                Jdbc.nullableLong(row, from + 7), row.getString(from + 8), Jdbc.nullableLong(row, from + 9));
    }
}

package io.ticketing.reservations.order;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.reservation.Claim;
import io.ticketing.reservations.reservation.HeldPosition;

/** The statements of an order change ({@link OrderChanges}) that no other flow sends: what it frees and writes. */
@ApplicationScoped
class OrderChangeRows {

    /**
     * An order change's new positions (contract section 9), written after its locks: a changed position keeps its id,
     * a new one draws one; a position keeps its price unless given none (its item changed, or it is new), and then
     * takes its item's; a changed position keeps its ticket's secret, a new one gets its own. In item order, so the sales counters' rows are taken in one ordered pass.
     */
    private static final String WRITE_POSITIONS = """
            WITH c AS (
              SELECT c.*, coalesce(c.id, nextval(pg_get_serial_sequence('order_positions', 'id'))) AS new_id
              FROM unnest(:ids, :items, :seats, :vouchers, :prices, :dates, :guids, :parents, :secrets) WITH ORDINALITY
                AS c (id, item_id, seat_id, voucher_id, price, date_id, pass_seat_guid, parent, secret, n))
            INSERT INTO order_positions (id, order_id, item_id, seat_id, voucher_id, price, date_id, pass_seat_guid,
              bundled_in, secret) OVERRIDING SYSTEM VALUE
            SELECT c.new_id, :order, c.item_id, c.seat_id, c.voucher_id,
                   CASE WHEN c.parent IS NULL THEN coalesce(c.price, dp.price, i.price) ELSE 0 END, c.date_id,
                   c.pass_seat_guid, p.new_id, coalesce(c.secret, ticket_secret())
            FROM c JOIN items i ON i.id = c.item_id
            LEFT JOIN item_date_prices dp ON dp.date_id = c.date_id AND dp.item_id = c.item_id
            LEFT JOIN c p ON p.n = c.parent + 1 ORDER BY c.item_id, c.n
            RETURNING id""";
    /**
     * An order change frees after its locks: the positions it cancels or changes leave (and the counters with them). A
     * bundle's position is canceled with what it brought: {@link OrderChanges} names those too (no foreign key takes
     * them, V21).
     */
    private static final String DELETE_POSITIONS = """
            DELETE FROM order_positions WHERE order_id = :order AND id = ANY(:ids)""";
    /** Of the positions leaving, the first inside on a list (contract section 3). */
    private static final String FIRST_INSIDE = """
            SELECT position_id FROM checkin_states WHERE position_id = ANY(:positions) AND inside
            ORDER BY position_id LIMIT 1""";
    private final Jdbc jdbc;
    private final OrderRows rows;

    OrderChangeRows(Jdbc jdbc, OrderRows rows) {
        this.jdbc = jdbc;
        this.rows = rows;
    }

    /**
     * What an order change frees, as statements the reservation sends after its locks and before it counts: the
     * positions it cancels or changes leave (their counters with them), and the canceled ones' voucher uses go back.
     * Freed after the locks, the change takes the sales counters' and vouchers' rows in the order checkout does.
     */
    List<Jdbc.Statement> freeing(long orderId, List<Long> leaving, List<? extends HeldPosition> canceled) {
        List<Jdbc.Statement> statements = new ArrayList<>();
        statements.add(jdbc.statement(DELETE_POSITIONS).set("order", orderId)
                .set("ids", leaving.toArray(Long[]::new)));
        statements.addAll(rows.givingBack(canceled));
        return statements;
    }

    /**
     * The first of {@code positions} inside on a check-in list, read after the change removed them (and so holds their
     * rows, which a scan locks too): a scan committed before is seen, one after waits for the change.
     */
    Optional<Long> firstInside(List<Long> positions) {
        return positions.isEmpty()
                ? Optional.empty()
                : jdbc.statement(FIRST_INSIDE).set("positions", positions.toArray(Long[]::new))
                        .list(row -> row.getLong(1)).stream().findFirst();
    }

    /**
     * The write an order change sends with its locks and checks: its new and changed positions. {@code ids} and
     * {@code prices} are those of the claims no bundle brought, in order: what a bundle brought is new, at no price of
     * its own, and follows its bundle's position. {@code secrets}: the order's, by position id.
     */
    Jdbc.Query<Long> writePositions(long orderId, List<Long> ids, List<Claim> claims, List<BigDecimal> prices,
            Map<Long, String> secrets) {
        Long[] allIds = new Long[claims.size()];
        BigDecimal[] allPrices = new BigDecimal[claims.size()];
        int written = 0;
        for (int i = 0; i < claims.size(); i++) {
            if (claims.get(i).bundledIn() == null) {
                allIds[i] = ids.get(written);
                allPrices[i] = prices.get(written);
                written++;
            }
        }
        return jdbc.statement(WRITE_POSITIONS).set("order", orderId).set("ids", allIds)
                .set("items", claims.stream().map(Claim::itemId).toArray(Long[]::new))
                .set("seats", claims.stream().map(Claim::seatId).toArray(Long[]::new))
                .set("vouchers", claims.stream().map(Claim::voucherId).toArray(Long[]::new))
                .set("dates", claims.stream().map(Claim::dateId).toArray(Long[]::new))
                .set("guids", claims.stream().map(Claim::passSeatGuid).toArray(String[]::new))
                .set("parents", claims.stream().map(Claim::bundledIn).toArray(Integer[]::new))
                .set("prices", allPrices)
                .set("secrets", Arrays.stream(allIds).map(id -> id == null ? null : secrets.get(id))
                        .toArray(String[]::new))
                .reading(row -> row.getLong(1));
    }
}

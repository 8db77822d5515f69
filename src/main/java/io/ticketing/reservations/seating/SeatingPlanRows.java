package io.ticketing.reservations.seating;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.inventory.SeatHolds;
import io.ticketing.reservations.inventory.SeatsShownFree;
import io.ticketing.reservations.jdbc.Jdbc;

/**
 * The statements of seating plans (contract section 13). A plan's seats are the event's seats: one set of no date,
 * or one set on each date of an event with dates. Replacing them runs under the event's exclusive lock, so the
 * check that no seat in use leaves or changes item and the writes that follow see the same holds and sales.
 */
@ApplicationScoped
class SeatingPlanRows {

    /** The plan's seats, one array a column, as every statement below reads them. */
    private static final String PLANNED = """
            unnest(:guids, :names, :items, :sections, :rows, :numbers, :xs, :ys, :categories, :ranks)
              AS p (guid, name, item_id, section, seat_row, number, x, y, category, plan_rank)""";

    /**
     * Seats a plan may not drop or move to another item (contract section 13): held, in a pending or paid order, or
     * bound to a voucher (any: a voucher names its seat for good), by seat or, on a date, by a pass's guid. So is a
     * seat that a flow may still bring back: a hold that ran out, until its cart is cleaned up or deleted (a checkout
     * buys it back if the seat is free), and an expired order (marking it paid revives it). Those flows read their
     * positions before they take the locks, so the plan must not change their seats under them.
     */
    private static final String IN_USE_AND_CHANGED = """
            SELECT DISTINCT s.guid FROM seats s LEFT JOIN (SELECT DISTINCT p.guid, p.item_id FROM %s) p
              ON p.guid = s.guid
            WHERE s.event_id = :event
              AND (p.guid IS NULL OR p.item_id <> s.item_id OR s.date_id IS NULL AND CAST(:dated AS boolean))
              AND (EXISTS (SELECT 1 FROM cart_positions c WHERE c.seat_id = s.id)
                OR EXISTS (SELECT 1 FROM order_positions op JOIN orders o ON o.id = op.order_id
                           WHERE op.seat_id = s.id AND o.status IN ('pending', 'paid', 'expired'))
                OR EXISTS (SELECT 1 FROM vouchers v WHERE v.seat_id = s.id)
                OR s.date_id IS NOT NULL AND (
                     EXISTS (SELECT 1 FROM cart_positions c JOIN carts k ON k.id = c.cart_id
                             WHERE c.pass_seat_guid = s.guid AND k.event_id = s.event_id)
                  OR EXISTS (SELECT 1 FROM order_positions op JOIN orders o ON o.id = op.order_id
                             WHERE op.pass_seat_guid = s.guid AND o.event_id = s.event_id
                               AND o.status IN ('pending', 'paid', 'expired'))))
            ORDER BY s.guid""".formatted(PLANNED);

    /**
     * The event's seats that leave: those of no guid of the plan, and all of no date in an event with dates (the
     * plan's seats are each date's). The same condition as the check's, which passed under the same lock.
     */
    private static final String LEAVING = """
            SELECT s.id FROM seats s LEFT JOIN unnest(CAST(:guids AS text[])) AS p (guid) ON p.guid = s.guid
            WHERE s.event_id = :event AND (p.guid IS NULL OR s.date_id IS NULL AND CAST(:dated AS boolean))""";

    /** Only canceled orders can still name a leaving seat (the check above): they forget it, as pretix's do. */
    private static final String FORGET_CANCELED_ORDERS = "UPDATE order_positions SET seat_id = NULL"
            + " WHERE seat_id = ANY(:seats)";
    private static final String DELETE_SEATS = "DELETE FROM seats WHERE id = ANY(:seats)";
    private static final String DELETE_OF_DATE = "DELETE FROM seats WHERE date_id = :date AND category IS NOT NULL";
    /** An event's first date takes the seats it had without dates (contract section 10), the plan's and its own. */
    private static final String DATE_UNDATED = "UPDATE seats SET date_id = :date WHERE event_id = :event"
            + " AND date_id IS NULL";
    /** The last date's plan seats become the event's without dates, where no seat of that guid is left undated. */
    private static final String UNDATE_PLAN_SEATS = """
            UPDATE seats s SET date_id = NULL WHERE s.event_id = :event AND s.date_id = :date AND s.category IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM seats u WHERE u.event_id = :event AND u.date_id IS NULL AND u.guid = s.guid)""";

    /** Seats that stay take the plan's place, name and category; only a changed seat's version moves. */
    private static final String UPDATE_STAYING = """
            UPDATE seats s SET name = p.name, item_id = p.item_id, section = p.section, seat_row = p.seat_row,
              number = p.number, x = p.x, y = p.y, category = p.category, plan_rank = p.plan_rank,
              version = s.version + 1
            FROM %s
            WHERE s.event_id = :event AND s.guid = p.guid
              AND (s.name, s.item_id, s.section, s.seat_row, s.number, s.x, s.y, s.category, s.plan_rank)
                IS DISTINCT FROM (p.name, p.item_id, p.section, p.seat_row, p.number, p.x, p.y, p.category, p.plan_rank)"""
            .formatted(PLANNED);

    /** The plan's seats not there yet, on each of {@code :dates} (one null element: the event has no dates). */
    private static final String INSERT_NEW = """
            INSERT INTO seats (event_id, date_id, guid, name, item_id, section, seat_row, number, x, y, category,
              plan_rank)
            SELECT :event, d.id, p.guid, p.name, p.item_id, p.section, p.seat_row, p.number, p.x, p.y, p.category,
              p.plan_rank
            FROM unnest(CAST(:dates AS bigint[])) AS d (id) CROSS JOIN %s
            WHERE NOT EXISTS (SELECT 1 FROM seats s WHERE s.event_id = :event AND s.guid = p.guid
                                AND s.date_id IS NOT DISTINCT FROM d.id)""".formatted(PLANNED);

    private static final String SAVE_PLAN = """
            INSERT INTO seating_plans (event_id, plan, categories) VALUES (:event, CAST(:plan AS json),
              CAST(:categories AS jsonb))
            ON CONFLICT (event_id) DO UPDATE SET plan = excluded.plan, categories = excluded.categories,
              version = seating_plans.version + 1, updated_at = now()
            RETURNING CAST(plan AS text), CAST(categories AS text), version""";

    private static final String PLAN = """
            SELECT CAST(plan AS text), CAST(categories AS text), version FROM seating_plans WHERE event_id = :event""";
    private static final String DELETE_PLAN = "DELETE FROM seating_plans WHERE event_id = :event";

    /**
     * Where each of the plan's seats of one date (of none: null) is, and whether the caller's channel can hold it, as
     * an add would judge it (contract section 3): a free seat, kept for no other channel, whose item takes one more
     * on its date there ({@link SeatHolds#TAKEABLE}).
     */
    private static final String DRAWN = """
            SELECT s.guid, s.x, s.y, s.category, (%s AND %s AND %s)
            FROM seats s
            WHERE s.event_id = :event AND s.date_id IS NOT DISTINCT FROM CAST(:date AS bigint)
              AND s.category IS NOT NULL
            ORDER BY s.plan_rank, s.guid""".formatted(SeatHolds.FREE, SeatHolds.SELLS_IN_CHANNEL,
            SeatHolds.TAKEABLE);

    /** A stored plan as imported, with its mapping of categories to items. */
    record StoredPlan(String plan, String categories, long version) {
    }

    private final Jdbc jdbc;

    SeatingPlanRows(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** The guids of seats in use that {@code seats} would drop or move to another item. */
    List<String> inUseAndChanged(long eventId, boolean dated, List<ItemSeat> seats) {
        return planned(jdbc.statement(IN_USE_AND_CHANGED), seats).set("event", eventId).set("dated", dated)
                .list(row -> row.getString(1));
    }

    /** Makes the event's seats (on each of {@code dates}, or of no date) exactly {@code seats}. */
    void replace(long eventId, List<Long> dates, List<ItemSeat> seats) {
        Long[] leaving = jdbc.statement(LEAVING).set("event", eventId).set("dated", !dates.isEmpty())
                .set("guids", seats.stream().map(seat -> seat.seat().guid()).toArray(String[]::new))
                .list(row -> row.getLong(1)).toArray(Long[]::new);
        if (leaving.length > 0) {
            jdbc.statement(FORGET_CANCELED_ORDERS).set("seats", leaving).update();
            jdbc.statement(DELETE_SEATS).set("seats", leaving).update();
        }
        planned(jdbc.statement(UPDATE_STAYING), seats).set("event", eventId).update();
        addTo(eventId, dates.isEmpty() ? new Long[]{null} : dates.toArray(Long[]::new), seats);
    }

    /** The plan's seats on {@code dates} where they are not yet. */
    void addTo(long eventId, Long[] dates, List<ItemSeat> seats) {
        planned(jdbc.statement(INSERT_NEW), seats).set("event", eventId).set("dates", dates).update();
    }

    void deleteOfDate(long dateId) {
        jdbc.statement(DELETE_OF_DATE).set("date", dateId).update();
    }

    void dateUndatedSeats(long eventId, long dateId) {
        jdbc.statement(DATE_UNDATED).set("event", eventId).set("date", dateId).update();
    }

    /** The last date's plan seats as the event's of no date; those of guids left undated already go. */
    void undateSeatsOf(long eventId, long dateId) {
        jdbc.statement(UNDATE_PLAN_SEATS).set("event", eventId).set("date", dateId).update();
        deleteOfDate(dateId);
    }

    StoredPlan save(long eventId, String plan, String categories) {
        return jdbc.statement(SAVE_PLAN).set("event", eventId).set("plan", plan).set("categories", categories)
                .list(SeatingPlanRows::storedPlan).get(0);
    }

    Optional<StoredPlan> plan(long eventId) {
        return jdbc.statement(PLAN).set("event", eventId).list(SeatingPlanRows::storedPlan).stream().findFirst();
    }

    private static StoredPlan storedPlan(ResultSet row) throws SQLException {
        return new StoredPlan(row.getString(1), row.getString(2), row.getLong(3));
    }

    void delete(long eventId) {
        jdbc.statement(DELETE_PLAN).set("event", eventId).update();
    }

    List<SeatingPlanView.DrawnSeat> drawn(long eventId, Long dateId, String channel, SeatsShownFree.Takeable takeable) {
        return jdbc.statement(DRAWN).set("event", eventId).set("date", dateId).set("channel", channel)
                .set("takeable_items", takeable.items()).set("takeable_dates", takeable.dates())
                .set("pass_guids", takeable.passGuids()).list(SeatingPlanRows::drawnSeat);
    }

    private static SeatingPlanView.DrawnSeat drawnSeat(ResultSet row) throws SQLException {
        return new SeatingPlanView.DrawnSeat(row.getString(1), row.getDouble(2), row.getDouble(3), row.getString(4),
                row.getBoolean(5));
    }

    /** A plan seat with the item its category is mapped to. */
    record ItemSeat(PlannedSeats.PlanSeat seat, long itemId) {
    }

    private static Jdbc.Statement planned(Jdbc.Statement statement, List<ItemSeat> seats) {
        return statement
                .set("guids", column(seats, seat -> seat.seat().guid(), String[]::new))
                .set("names", column(seats, seat -> seat.seat().name(), String[]::new))
                .set("items", column(seats, ItemSeat::itemId, Long[]::new))
                .set("sections", column(seats, seat -> seat.seat().section(), String[]::new))
                .set("rows", column(seats, seat -> seat.seat().row(), String[]::new))
                .set("numbers", column(seats, seat -> seat.seat().number(), Integer[]::new))
                .set("xs", column(seats, seat -> seat.seat().x(), Double[]::new))
                .set("ys", column(seats, seat -> seat.seat().y(), Double[]::new))
                .set("categories", column(seats, seat -> seat.seat().category(), String[]::new))
                .set("ranks", column(seats, seat -> seat.seat().rank(), Long[]::new));
    }

    private static <T> T[] column(Collection<ItemSeat> seats, Function<ItemSeat, T> value,
            java.util.function.IntFunction<T[]> array) {
        return seats.stream().map(value).toArray(array);
    }
}

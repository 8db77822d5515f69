package io.ticketing.reservations.inventory;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.organizer.KnownChannels;

/**
 * The inventory's statements beyond the admin entities' own (which Panache writes, with their versions): the
 * seating plan in bulk and as pages, what refers to a row before it is deleted. Counting is {@link QuotaCounter}'s.
 */
@ApplicationScoped
class InventoryRows {

    /** One statement for the whole plan: a 10,000-seat venue is one round trip, not 10,000. */
    private static final String INSERT_SEATS = """
            INSERT INTO seats (event_id, date_id, guid, name, item_id, blocked, section, seat_row, number)
            SELECT :event, :date, s.guid, s.name, s.item_id, s.blocked, s.section, s.seat_row, s.number
            FROM unnest(:guids, :names, :items, :blocked, :sections, :rows, :numbers)
              AS s (guid, name, item_id, blocked, section, seat_row, number)""";
    /** The seats of one date, or of no date when {@code :date} is null. */
    private static final String OF_DATE = "s.date_id IS NOT DISTINCT FROM CAST(:date AS bigint)";
    /**
     * An item's numbered seats no one holds on one date (in one section, or all): best available's choice, under its
     * lock.
     */
    private static final String FREE_SEATS = "SELECT s.id, s.section, s.seat_row, s.number FROM seats s"
            + " WHERE s.event_id = :event AND s.item_id = :item AND s.number IS NOT NULL AND " + OF_DATE
            + " AND " + SeatHolds.SELLS_IN_CHANNEL
            + " AND (s.section = :section OR CAST(:section AS text) IS NULL) AND " + SeatHolds.FREE;
    private static final String EXISTING_GUIDS = "SELECT s.guid FROM seats s WHERE s.event_id = :event"
            + " AND s.guid = ANY(:guids) AND " + OF_DATE + " ORDER BY s.guid LIMIT 10";
    /**
     * A seat's columns; {@code available}: {@code :channel} can hold it now, as an add would judge it (contract section
     * 3): the seat is free and sold there, and its item takes one more on its date ({@link SeatHolds#TAKEABLE}).
     */
    private static final String SEAT_COLUMNS = "s.id, s.guid, s.name, s.item_id, s.blocked, s.version, "
            + SeatHolds.SELLS_IN_CHANNEL + " AND NOT " + SeatHolds.UNAVAILABLE + " AND " + SeatHolds.TAKEABLE
            + " AS available, s.section, s.seat_row, s.number, s.date_id, s.channels, s.x, s.y";
    /** Every seat, or those of one date ({@code :date}), when {@code :all_dates} is false. */
    private static final String OF_DATE_OR_ALL = "(:all_dates OR " + OF_DATE + ")";
    /** A page of seats after a cursor. The availability of each seat is worked out once, then filtered on. */
    private static final String SEAT_PAGE = """
            SELECT * FROM (SELECT %s FROM seats s WHERE s.event_id = :event AND s.id > :after AND %s) plan
            WHERE available OR NOT :only_available ORDER BY id LIMIT :limit""".formatted(SEAT_COLUMNS, OF_DATE_OR_ALL);
    private static final String SEAT = "SELECT " + SEAT_COLUMNS + " FROM seats s"
            + " WHERE s.event_id = :event AND s.guid = :guid AND " + OF_DATE;
    private static final String SEATS_BY_GUIDS = "SELECT " + SEAT_COLUMNS + " FROM seats s"
            + " WHERE s.event_id = :event AND s.guid = ANY(:guids) AND " + OF_DATE;
    /** New seats kept for channels (contract section 12), each set of channels in one statement. */
    private static final String KEEP_SEATS = "UPDATE seats s SET channels = :channels WHERE s.event_id = :event"
            + " AND s.guid = ANY(:guids) AND " + OF_DATE;

    private static final String ITEM_IN_USE = """
            SELECT EXISTS (SELECT 1 FROM cart_positions WHERE item_id = :id AND expires >= now())
                OR EXISTS (SELECT 1 FROM order_positions WHERE item_id = :id)
                OR EXISTS (SELECT 1 FROM seats WHERE item_id = :id)
                OR EXISTS (SELECT 1 FROM vouchers WHERE item_id = :id)
                OR EXISTS (SELECT 1 FROM item_bundles WHERE bundled_item_id = :id)
                OR EXISTS (SELECT 1 FROM items i JOIN seating_plans p ON p.event_id = i.event_id,
                             jsonb_each_text(p.categories) c WHERE i.id = :id AND c.value = CAST(:id AS text))""";
    /** What one position of each item brings (contract section 10). */
    private static final String BUNDLES = """
            SELECT item_id, bundled_item_id, count FROM item_bundles WHERE item_id = ANY(:items)
            ORDER BY item_id, bundled_item_id""";
    private static final String CLEAR_BUNDLE = "DELETE FROM item_bundles WHERE item_id = :item";
    private static final String SET_BUNDLE = """
            INSERT INTO item_bundles (item_id, bundled_item_id, count)
            SELECT :item, b.item_id, b.count FROM unnest(:items, :counts) AS b (item_id, count)""";
    /** Whether the item bundles others, or is bundled in another: bundles do not nest. */
    private static final String IN_A_BUNDLE = """
            SELECT EXISTS (SELECT 1 FROM item_bundles WHERE bundled_item_id = :id)""";
    /** A quota is in use while a live hold or any order position of one of its items, or a voucher, names it. */
    private static final String QUOTA_IN_USE = """
            SELECT EXISTS (SELECT 1 FROM quota_items q JOIN cart_positions c ON c.item_id = q.item_id
                           WHERE q.quota_id = :id AND c.expires >= now())
                OR EXISTS (SELECT 1 FROM quota_items q JOIN order_positions p ON p.item_id = q.item_id
                           WHERE q.quota_id = :id)
                OR EXISTS (SELECT 1 FROM vouchers WHERE quota_id = :id)""";
    /** Held, sold, redeemed, or a waiting-list offer (which belongs to its entry: leave the list to end it). */
    private static final String VOUCHER_IN_USE = """
            SELECT EXISTS (SELECT 1 FROM cart_positions WHERE voucher_id = :id AND expires >= now())
                OR EXISTS (SELECT 1 FROM order_positions WHERE voucher_id = :id)
                OR (SELECT redeemed > 0 OR NOT gives_back FROM vouchers WHERE id = :id)""";

    /** A seat in a page: its id is the cursor. */
    record SeatRow(long id, InventoryViews.SeatView view) {
    }

    private final Jdbc jdbc;

    InventoryRows(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** At most ten of {@code guids} that the event has already on {@code dateId} (null: among seats of no date). */
    List<String> existingSeats(long eventId, Long dateId, List<String> guids) {
        return jdbc.statement(EXISTING_GUIDS).set("event", eventId).set("date", dateId)
                .set("guids", guids.toArray(String[]::new)).list(row -> row.getString(1));
    }

    /**
     * To be sent with the exclusive lock of the date (the event's, without dates), so that no seat it returns can be
     * taken before the commit.
     */
    Jdbc.Query<BestSeats.FreeSeat> freeSeats(long eventId, long itemId, String section, Long dateId,
            String channel) {
        return jdbc.statement(FREE_SEATS).set("event", eventId).set("item", itemId).set("section", section)
                .set("date", dateId).set("channel", channel)
                .reading(row -> new BestSeats.FreeSeat(row.getLong(1), row.getString(2), row.getString(3),
                        row.getInt(4)));
    }

    void insertSeats(long eventId, Long dateId, List<InventoryRequests.NewSeat> seats) {
        jdbc.statement(INSERT_SEATS).set("event", eventId).set("date", dateId)
                .set("guids", seats.stream().map(InventoryRequests.NewSeat::guid).toArray(String[]::new))
                .set("names", seats.stream().map(seat -> seat.name().strip()).toArray(String[]::new))
                .set("items", seats.stream().map(InventoryRequests.NewSeat::itemId).toArray(Long[]::new))
                .set("blocked", seats.stream().map(seat -> Boolean.TRUE.equals(seat.blocked())).toArray(Boolean[]::new))
                .set("sections", seats.stream().map(InventoryRequests.NewSeat::section).toArray(String[]::new))
                .set("rows", seats.stream().map(InventoryRequests.NewSeat::row).toArray(String[]::new))
                .set("numbers", seats.stream().map(InventoryRequests.NewSeat::number).toArray(Integer[]::new))
                .update();
        Map<List<String>, List<String>> kept = new HashMap<>();
        seats.stream().filter(seat -> seat.channels() != null).forEach(seat -> kept
                .computeIfAbsent(KnownChannels.eachOnce(seat.channels()), channels -> new ArrayList<>())
                .add(seat.guid()));
        kept.forEach((channels, guids) -> jdbc.statement(KEEP_SEATS).set("event", eventId).set("date", dateId)
                .set("guids", guids.toArray(String[]::new)).set("channels", channels.toArray(String[]::new)).update());
    }

    /** A page of the seats of {@code dateId}, or of every date when {@code allDates}, as {@code channel} can take them. */
    List<SeatRow> seatPage(long eventId, boolean allDates, Long dateId, long after, int limit,
            boolean onlyAvailable, String channel, SeatsShownFree.Takeable takeable) {
        return shownTo(jdbc.statement(SEAT_PAGE).set("event", eventId).set("after", after).set("limit", limit)
                .set("only_available", onlyAvailable).set("all_dates", allDates).set("date", dateId), channel,
                takeable).list(InventoryRows::seat);
    }

    /** The seats of {@code dateId} (of no date when null) with these guids, as {@code channel} can take them. */
    List<InventoryViews.SeatView> seats(long eventId, Long dateId, List<String> guids, String channel,
            SeatsShownFree.Takeable takeable) {
        return shownTo(jdbc.statement(SEATS_BY_GUIDS).set("event", eventId).set("guids", guids.toArray(String[]::new))
                .set("date", dateId), channel, takeable).list(row -> seat(row).view());
    }

    Optional<InventoryViews.SeatView> seat(long eventId, Long dateId, String guid, String channel,
            SeatsShownFree.Takeable takeable) {
        return shownTo(jdbc.statement(SEAT).set("event", eventId).set("guid", guid).set("date", dateId), channel,
                takeable).list(InventoryRows::seat).stream().findFirst().map(SeatRow::view);
    }

    boolean itemInUse(long itemId) {
        return exists(ITEM_IN_USE, itemId);
    }

    boolean quotaInUse(long quotaId) {
        return exists(QUOTA_IN_USE, quotaId);
    }

    boolean voucherInUse(long voucherId) {
        return exists(VOUCHER_IN_USE, voucherId);
    }

    /** The bundles of these items, by item id; an item that bundles nothing is absent. */
    Map<Long, List<InventoryRequests.Bundled>> bundlesOf(List<Long> itemIds) {
        Map<Long, List<InventoryRequests.Bundled>> bundles = new HashMap<>();
        jdbc.statement(BUNDLES).set("items", itemIds.toArray(Long[]::new)).list(row -> bundles
                .computeIfAbsent(row.getLong(1), item -> new ArrayList<>())
                .add(new InventoryRequests.Bundled(row.getLong(2), row.getInt(3))));
        return bundles;
    }

    /** Replaces what one position of the item brings. */
    void setBundle(long itemId, List<InventoryRequests.Bundled> bundle) {
        jdbc.statement(CLEAR_BUNDLE).set("item", itemId).update();
        if (!bundle.isEmpty()) {
            jdbc.statement(SET_BUNDLE).set("item", itemId)
                    .set("items", bundle.stream().map(InventoryRequests.Bundled::itemId).toArray(Long[]::new))
                    .set("counts", bundle.stream().map(InventoryRequests.Bundled::count).toArray(Integer[]::new))
                    .update();
        }
    }

    boolean inABundle(long itemId) {
        return exists(IN_A_BUNDLE, itemId);
    }

    private boolean exists(String query, long id) {
        return jdbc.statement(query).set("id", id).list(row -> row.getBoolean(1)).get(0);
    }

    /** A seat's {@code available} as {@code channel} can take it: see {@link #SEAT_COLUMNS}. */
    private static Jdbc.Statement shownTo(Jdbc.Statement statement, String channel, SeatsShownFree.Takeable takeable) {
        return FreeSeats.anyone(statement).set("channel", channel).set("takeable_items", takeable.items())
                .set("takeable_dates", takeable.dates()).set("pass_guids", takeable.passGuids());
    }

    private static SeatRow seat(ResultSet row) throws SQLException {
        return new SeatRow(row.getLong(1), new InventoryViews.SeatView(row.getString(2), row.getString(3),
                row.getLong(4), row.getString(8), row.getString(9), Jdbc.integer(row, 10), row.getBoolean(5),
                row.getBoolean(7), row.getLong(6), Jdbc.nullableLong(row, 11), channels(row, 12),
                nullableDouble(row, 13), nullableDouble(row, 14)));
    }

    private static Double nullableDouble(ResultSet row, int column) throws SQLException {
        double value = row.getDouble(column);
        return row.wasNull() ? null : value;
    }

    private static List<String> channels(ResultSet row, int column) throws SQLException {
        Array channels = row.getArray(column);
        return channels == null ? null : List.of((String[]) channels.getArray());
    }
}

package io.ticketing.reservations.inventory;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;

/**
 * The seats a storefront's reads count (contract section 3): those of an item free to a channel, seat by seat
 * ({@link SeatHolds#UNAVAILABLE} for no buyer in particular, and kept for no other channel). What the item itself can
 * still take on a date is the availability's, counted as an add is judged.
 */
@ApplicationScoped
public class FreeSeats {

    /** Free seats per item on one date (of no date, in an event without dates). */
    private static final String BY_ITEM = "SELECT s.item_id, count(*) FROM seats s"
            + " WHERE s.event_id = :event AND s.date_id IS NOT DISTINCT FROM CAST(:date AS bigint)"
            + " AND " + SeatHolds.SELLS_IN_CHANNEL + " AND NOT " + SeatHolds.UNAVAILABLE + " GROUP BY s.item_id";
    /** A pass's seats (contract section 10): the guids of the item free on every one of {@code :dates}. */
    private static final String PASS_GUIDS = "SELECT s.guid FROM seats s"
            + " WHERE s.event_id = :event AND s.item_id = :item AND s.date_id = ANY(:dates) AND "
            + SeatHolds.SELLS_IN_CHANNEL + " AND NOT " + SeatHolds.UNAVAILABLE
            + " GROUP BY s.guid HAVING count(*) = cardinality(:dates) ORDER BY s.guid";

    private final Jdbc jdbc;

    FreeSeats(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Free seats per item on {@code dateId} (of no date when null), to {@code channel}. */
    public Map<Long, Long> byItem(long eventId, Long dateId, String channel) {
        Map<Long, Long> free = new HashMap<>();
        anyone(jdbc.statement(BY_ITEM).set("event", eventId).set("date", dateId).set("channel", channel))
                .list(row -> free.put(row.getLong(1), row.getLong(2)));
        return free;
    }

    /** The guids pass {@code itemId} can hold for {@code channel}: free on every one of {@code dates}. */
    public List<String> ofPass(long eventId, long itemId, Collection<Long> dates, String channel) {
        return anyone(jdbc.statement(PASS_GUIDS).set("event", eventId).set("item", itemId)
                .set("dates", dates.toArray(Long[]::new)).set("channel", channel)).list(row -> row.getString(1));
    }

    /** {@link SeatHolds#UNAVAILABLE} for no buyer in particular: no own positions, no vouchers. */
    static Jdbc.Statement anyone(Jdbc.Statement statement) {
        return statement.set("own", new Long[0]).set("vouchers", new Long[0]);
    }
}

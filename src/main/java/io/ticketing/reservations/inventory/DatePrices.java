package io.ticketing.reservations.inventory;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.problem.NotFoundException;

/**
 * Items' prices on dates of their event (contract section 10), where they differ from their own: set from the date
 * ({@code prices: {item_id: price}}) or from the item ({@code prices: {date_id: price}}). A hold takes the price of its
 * item on its date when it is written ({@code CartRows}).
 */
@ApplicationScoped
public class DatePrices {

    private static final String SET = """
            INSERT INTO item_date_prices (date_id, item_id, price) VALUES (:date, :item, :price)
            ON CONFLICT (date_id, item_id) DO UPDATE SET price = excluded.price""";
    private static final String REMOVE = "DELETE FROM item_date_prices WHERE date_id = :date AND item_id = :item";
    private static final String OF_DATE = """
            SELECT item_id, price FROM item_date_prices WHERE date_id = :date ORDER BY item_id""";
    private static final String OF_ITEM = """
            SELECT date_id, price FROM item_date_prices WHERE item_id = :item ORDER BY date_id""";
    private static final String ALL_DATES = "SELECT id FROM event_dates WHERE event_id = :event ORDER BY id";
    private static final String ON_SALE = "SELECT id, active FROM event_dates WHERE event_id = :event ORDER BY id";
    private static final String DATES_OF_EVENT = """
            SELECT count(*) FROM event_dates WHERE event_id = :event AND id = ANY(:dates)""";

    private final Jdbc jdbc;

    DatePrices(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** The ids of every date of the event, on sale or not: those a voucher or an offer of no date blocks on. */
    /** The event's dates, by id, with whether each is on sale. */
    public Map<Long, Boolean> onSale(long eventId) {
        Map<Long, Boolean> dates = new TreeMap<>();
        jdbc.statement(ON_SALE).set("event", eventId).list(row -> dates.put(row.getLong(1), row.getBoolean(2)));
        return dates;
    }

    public List<Long> allOf(long eventId) {
        return jdbc.statement(ALL_DATES).set("event", eventId).list(row -> row.getLong(1));
    }

    /** Sets (a price) or removes (null) the price of {@code itemId} on {@code dateId}. */
    public void change(long dateId, long itemId, String price) {
        if (price == null) {
            jdbc.statement(REMOVE).set("date", dateId).set("item", itemId).update();
        } else {
            jdbc.statement(SET).set("date", dateId).set("item", itemId).set("price", new BigDecimal(price)).update();
        }
    }

    /** The date's prices, by item id. */
    public Map<Long, String> ofDate(long dateId) {
        return byId(jdbc.statement(OF_DATE).set("date", dateId));
    }

    /** The item's prices, by date id. */
    public Map<Long, String> ofItem(long itemId) {
        return byId(jdbc.statement(OF_ITEM).set("item", itemId));
    }

    /** 404 unless every one of {@code dateIds} is a date of the event. */
    public void requireDatesOf(long eventId, Collection<Long> dateIds) {
        long found = jdbc.statement(DATES_OF_EVENT).set("event", eventId).set("dates", dateIds.toArray(Long[]::new))
                .list(row -> row.getLong(1)).get(0);
        if (found != dateIds.stream().distinct().count()) {
            throw new NotFoundException("date", dateIds.toString());
        }
    }

    private static Map<Long, String> byId(Jdbc.Statement prices) {
        Map<Long, String> byId = new TreeMap<>();
        prices.list(row -> byId.put(row.getLong(1), row.getBigDecimal(2).toPlainString()));
        return byId;
    }
}

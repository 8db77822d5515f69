package io.ticketing.reservations.inventory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.ticketing.reservations.jdbc.Jdbc;

/**
 * What a reservation checks about an item: whether it sells at all, with a seat or without, how many one buyer may
 * have of it ({@code maxPerBuyer}) and of its whole event ({@code eventMaxPerBuyer}; null is no limit), and contract
 * section 10's: whether it is a pass ({@code everyDate}), what one of it bundles, whether its event has dates at all
 * ({@code eventDated}); and for a pass and what a pass bundles, the {@code passDates} it counts and is checked on
 * (every date of the event, on sale or not: null for other items) and whether any of them is on sale; section 12's
 * {@code channels} it sells in (null: every one).
 */
public record ItemForSale(long id, String name, boolean requiresSeat, boolean active, Integer maxPerBuyer,
        Integer eventMaxPerBuyer, boolean everyDate, List<Bundled> bundle, Set<Long> passDates,
        boolean eventDated, boolean passOnSale, Set<String> channels) {

    /** Whether it sells in {@code channel} (contract section 12). */
    public boolean sellsIn(String channel) {
        return sellsIn(channels, channel);
    }

    /** Whether an item limited to {@code channels} (null: none) sells in {@code channel}: for buyers and the catalog. */
    public static boolean sellsIn(Collection<String> channels, String channel) {
        return channels == null || channels.contains(channel);
    }

    /** {@code count} positions of item {@code itemId} come with each position of the bundling item. */
    public record Bundled(long itemId, int count) {
    }

    public boolean limitedPerBuyer() {
        return maxPerBuyer != null || eventMaxPerBuyer != null;
    }

    /**
     * The items a reservation checks, with what they bundle; for a pass and what a pass bundles, every date of the
     * event, on sale or not (a pass counts and is checked on each: contract section 10), and whether one of them is on
     * sale; and whether the event has dates at all. Public for the benchmark.
     */
    public static final String SELECT = """
            SELECT i.id, i.name, i.requires_seat, i.active, i.max_per_buyer, e.max_per_buyer, i.every_date,
              b.items, b.counts,
              CASE WHEN p.passes THEN ARRAY(SELECT d.id FROM event_dates d WHERE d.event_id = e.id ORDER BY d.id) END,
              EXISTS (SELECT 1 FROM event_dates d WHERE d.event_id = e.id),
              p.passes AND EXISTS (SELECT 1 FROM event_dates d WHERE d.event_id = e.id AND d.active),
              i.channels
            FROM items i JOIN events e ON e.id = i.event_id
            LEFT JOIN LATERAL (SELECT array_agg(bundled_item_id ORDER BY bundled_item_id) AS items,
                array_agg(count ORDER BY bundled_item_id) AS counts FROM item_bundles WHERE item_id = i.id) b ON true
            CROSS JOIN LATERAL (SELECT i.every_date OR EXISTS (SELECT 1 FROM item_bundles ib
                JOIN items p ON p.id = ib.item_id WHERE ib.bundled_item_id = i.id AND p.every_date) AS passes) p
            WHERE i.id IN (%s) AND i.event_id = :event"""
            .formatted(QuotaCounter.CLAIMED_ITEMS.replace(":items", ":ids"));

    /**
     * The event's items with these ids and the items they bundle, as a reservation checks them; ids of other events
     * are absent.
     */
    public static Jdbc.Query<ItemForSale> of(Jdbc jdbc, long eventId, Collection<Long> ids) {
        return jdbc.statement(SELECT).set("ids", ids.toArray(Long[]::new)).set("event", eventId)
                .reading(row -> {
                    List<Long> bundled = Jdbc.longs(row, 8);
                    List<Long> counts = Jdbc.longs(row, 9);
                    List<ItemForSale.Bundled> bundle = new ArrayList<>();
                    for (int i = 0; i < bundled.size(); i++) {
                        bundle.add(new ItemForSale.Bundled(bundled.get(i), Math.toIntExact(counts.get(i))));
                    }
                    return new ItemForSale(row.getLong(1), row.getString(2), row.getBoolean(3), row.getBoolean(4),
                            Jdbc.integer(row, 5), Jdbc.integer(row, 6), row.getBoolean(7), List.copyOf(bundle),
                            row.getArray(10) == null ? null : new TreeSet<>(Jdbc.longs(row, 10)),
                            row.getBoolean(11), row.getBoolean(12),
                            row.getArray(13) == null ? null : Set.of((String[]) row.getArray(13).getArray()));
                });
    }
}

package io.ticketing.reservations.inventory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.problem.NotFoundException;

/**
 * What a storefront may offer: per active item sold in the caller's channel, the least that is left among its quotas
 * for a buyer of that channel the waiting list does not offer it to (its allotments first, contract section 12; and
 * the free seats the channel sells, for seated items; and what its bundle brings, section 10). It takes no lock, so it may be a moment stale; adding to a cart is the real check.
 *
 * <p>In an event with dates, {@code date_id} names the date: an item counts its quotas of that date and of no date.
 * Without one, an item counts on the date where it has the most left (what one buyer could still get on some date);
 * a pass counts on every active date, with or without one.
 *
 * <p>Storefronts read this on every page view, in a rush by the thousand a second: a reading is kept for
 * {@code availability.cache-ttl} per event, date and channel, unless a request changed the event on this replica meanwhile
 * (so a buyer sees their own hold at once); what other replicas sold shows within that time. The availability
 * stream reads afresh.
 */
@ApplicationScoped
public class StorefrontAvailability {

    private static final String DATES = "SELECT id, active FROM event_dates WHERE event_id = :event ORDER BY id";
    /** A pass's seats: the guids of the item free on every one of {@code :dates}. */
    private static final String FREE_PASS_SEATS = "SELECT count(*) FROM (SELECT s.guid FROM seats s"
            + " WHERE s.event_id = :event AND s.item_id = :item AND s.date_id = ANY(:dates) AND "
            + SeatHolds.SELLS_IN_CHANNEL + " AND NOT " + SeatHolds.UNAVAILABLE
            + " GROUP BY s.guid HAVING count(*) = cardinality(:dates)) free";

    /** Readings kept, events and dates together; past it the cache starts afresh rather than grow. */
    private static final int MAX_CACHED = 10_000;

    /** A reading of one event on one date, when it was made and after how many of the event's changes. */
    private record Reading(List<Left> left, long atNanos, long changes) {
    }

    private final QuotaCounter counter;
    private final InventoryRows rows;
    private final DatePrices prices;
    private final Jdbc jdbc;
    private final long cacheNanos;
    private final Map<String, Reading> readings = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> changes = new ConcurrentHashMap<>();

    StorefrontAvailability(QuotaCounter counter, InventoryRows rows, DatePrices prices, Jdbc jdbc,
            @ConfigProperty(name = "availability.cache-ttl") Duration cacheTtl) {
        this.counter = counter;
        this.rows = rows;
        this.prices = prices;
        this.jdbc = jdbc;
        this.cacheNanos = cacheTtl.toNanos();
    }

    /** A request changed event {@code slug} on this replica: its next reading is made afresh. */
    public void changed(String slug) {
        AtomicLong count = changes.get(slug);
        if (count != null) {
            count.incrementAndGet();
        }
    }

    /** An active item and how many are left: null when nothing limits it. */
    private record Left(Item item, Integer number) {

        boolean available() {
            return number == null || number > 0;
        }
    }

    /** What is left of the items sold in {@code channel} (contract section 12), from the kept reading. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public InventoryViews.EventAvailability of(Event event, Long dateId, String channel) {
        return availability(cached(event, dateId, channel));
    }

    /** {@link #of}, read now: for the stream, whose readings must see every change. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public InventoryViews.EventAvailability fresh(Event event, Long dateId, String channel) {
        return availability(left(event, dateId, channel));
    }

    private static InventoryViews.EventAvailability availability(List<Left> left) {
        return new InventoryViews.EventAvailability(left.stream()
                .map(one -> new InventoryViews.ItemAvailability(one.item().id, one.available(), one.number()))
                .toList());
    }

    /**
     * What a ticket page shows, in one read: each active item sold in {@code channel} with its name, price (on the
     * date) and what is left.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public InventoryViews.Catalog catalog(Event event, Long dateId, String channel) {
        Map<Long, String> onDate = dateId == null ? Map.of() : prices.ofDate(dateId);
        return new InventoryViews.Catalog(cached(event, dateId, channel).stream()
                .map(left -> new InventoryViews.CatalogItem(left.item().id, left.item().name,
                        onDate.getOrDefault(left.item().id, left.item().price.toPlainString()),
                        left.item().requiresSeat, left.available(), left.number()))
                .toList());
    }

    /** The kept reading of the event on the date for the channel, or a new one. */
    private List<Left> cached(Event event, Long dateId, String channel) {
        String key = event.slug + "/" + dateId + "/" + channel;
        long now = System.nanoTime();
        long changed = changes.computeIfAbsent(event.slug, slug -> new AtomicLong()).get();
        Reading kept = readings.get(key);
        if (kept != null && now - kept.atNanos() < cacheNanos && kept.changes() == changed) {
            return kept.left();
        }
        if (readings.size() >= MAX_CACHED) {
            readings.clear();
            changes.clear();
        }
        List<Left> left = left(event, dateId, channel);
        readings.put(key, new Reading(left, now, changed));
        return left;
    }

    /**
     * The items sold in {@code channel} (contract section 12) and what each has left for it: its quotas' allotments
     * for the channel first, then what is left for everyone.
     */
    private List<Left> left(Event event, Long dateId, String channel) {
        Map<Long, Boolean> dates = new HashMap<>();
        jdbc.statement(DATES).set("event", event.id).list(row -> dates.put(row.getLong(1), row.getBoolean(2)));
        if (dateId != null && !dates.containsKey(dateId)) {
            throw new NotFoundException("date", dateId);
        }
        Set<Long> active = new TreeSet<>();
        dates.forEach((id, on) -> {
            if (on) {
                active.add(id);
            }
        });
        List<CountedQuota> quotas = counter.ofEvent(event.id);
        List<Item> items = Item.listForEvent(event.id);
        Map<Long, List<InventoryRequests.Bundled>> bundles = rows.bundlesOf(items.stream().map(i -> i.id).toList());
        Counting counting = new Counting(event, quotas, active, new TreeSet<>(dates.keySet()), channel);
        Map<Long, Integer> byItem = new HashMap<>();
        for (Item item : items) {
            if (item.active && !bundles.containsKey(item.id)) {
                byItem.put(item.id, counting.left(item, dateId));
            }
        }
        List<Left> left = new ArrayList<>();
        for (Item item : items) {
            if (!item.active || !ItemForSale.sellsIn(item.channels, channel)) {
                continue;
            }
            Integer number = byItem.containsKey(item.id) ? byItem.get(item.id) : counting.left(item, dateId);
            for (InventoryRequests.Bundled bundled : bundles.getOrDefault(item.id, List.of())) {
                Integer ofBundled = byItem.computeIfAbsent(bundled.itemId(),
                        id -> Item.<Item>findById(id) == null
                                ? Integer.valueOf(0)
                                : counting.left(Item.findById(id),
                                        dateId));
                number = ofBundled == null ? number : min(number, ofBundled / bundled.count());
            }
            left.add(new Left(item, number));
        }
        return left;
    }

    /** One reading's counts, and what an item has left on a date or, for a pass, on all. */
    private final class Counting {

        private final Event event;
        private final List<CountedQuota> quotas;
        private final Set<Long> active;
        private final Set<Long> all;
        private final String channel;
        private Map<Long, Map<Long, Long>> freeSeats;

        Counting(Event event, List<CountedQuota> quotas, Set<Long> active, Set<Long> all, String channel) {
            this.channel = channel;
            this.event = event;
            this.quotas = quotas;
            this.active = active;
            this.all = all;
        }

        Integer left(Item item, Long dateId) {
            if (all.isEmpty()) {
                return onDates(item, Set.of(), null);
            }
            if (item.everyDate) {
                // Sold while a date is on sale, counted and checked on every date (contract section 10).
                return active.isEmpty() ? Integer.valueOf(0) : onDates(item, all, all);
            }
            if (dateId != null) {
                return active.contains(dateId) ? onDates(item, Set.of(dateId), null) : Integer.valueOf(0);
            }
            Integer best = 0;
            for (long date : active) {
                Integer onDate = onDates(item, Set.of(date), null);
                if (onDate == null) {
                    return null;
                }
                best = Math.max(best, onDate);
            }
            return best;
        }

        /** The least left in the item's quotas of no date and of {@code dates}, and in its free seats there. */
        private Integer onDates(Item item, Set<Long> dates, Set<Long> passDates) {
            List<CountedQuota> ofItem = quotas.stream().filter(quota -> quota.itemIds().contains(item.id)
                    && (quota.dateId() == null || dates.contains(quota.dateId()))).toList();
            Integer number = ofItem.isEmpty() ? Integer.valueOf(0) : null;
            for (CountedQuota quota : ofItem) {
                if (quota.isFinite()) {
                    number = min(number, quota.availability().leftFor(channel));
                }
            }
            if (item.requiresSeat) {
                number = min(number, Math.toIntExact(passDates != null
                        ? freePassSeats(item, passDates)
                        : dates.stream().mapToLong(date -> seatsFree(date).getOrDefault(item.id, 0L)).sum()
                                + (dates.isEmpty() ? seatsFree(null).getOrDefault(item.id, 0L) : 0)));
            }
            return number;
        }

        private Map<Long, Long> seatsFree(Long date) {
            if (freeSeats == null) {
                freeSeats = new HashMap<>();
            }
            return freeSeats.computeIfAbsent(date == null ? 0L : date,
                    key -> rows.freeSeatsByItem(event.id, date, channel));
        }

        private long freePassSeats(Item item, Set<Long> dates) {
            return jdbc.statement(FREE_PASS_SEATS).set("event", event.id).set("item", item.id)
                    .set("dates", dates.toArray(Long[]::new)).set("channel", channel).set("own", new Long[0])
                    .set("vouchers", new Long[0])
                    .list(row -> row.getLong(1)).get(0);
        }
    }

    private static Integer min(Integer current, Integer candidate) {
        if (candidate == null) {
            return current;
        }
        return current == null ? candidate : Math.min(current, candidate);
    }
}

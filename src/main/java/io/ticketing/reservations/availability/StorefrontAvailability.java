package io.ticketing.reservations.availability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.DatePrices;
import io.ticketing.reservations.inventory.FreeSeats;
import io.ticketing.reservations.inventory.InventoryViews;
import io.ticketing.reservations.inventory.Item;
import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.QuotaCounter;
import io.ticketing.reservations.inventory.SeatsShownFree;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.reservation.Deadlines;
import io.ticketing.reservations.reservation.WhatFits;

/**
 * What a storefront may offer (contract section 3, "What a caller is shown is what it can take"): per active item sold
 * in the caller's channel, how many positions a buyer of that channel with no voucher could add now, alone: by the
 * expansion and count an add is judged by ({@link WhatFits}: what a bundle brings, a pass on every date, allotments,
 * blocking vouchers, what the waiting list keeps back), and for a seated item no more than the seats free to it. It
 * takes no lock, so it may be a moment stale; adding to a cart is the real check. The seat list and the plan read
 * which seats can be held from here too ({@link SeatsShownFree}).
 *
 * <p>In an event with dates, {@code date_id} names the date. Without one, an item counts on the date where it has the
 * most left (what one buyer could still get on some date); a pass counts on every date, with or without one.
 *
 * <p>Storefronts read this on every page view, in a rush by the thousand a second: a reading is kept for
 * {@code availability.cache-ttl} per event, date and channel, unless a request changed the event on this replica
 * meanwhile (so a buyer sees their own hold at once); what other replicas sold shows within that time. The
 * availability stream, the seat list and the plan read afresh.
 */
@ApplicationScoped
public class StorefrontAvailability implements SeatsShownFree {

    /** Readings kept, events and dates together; past it the cache starts afresh rather than grow. */
    private static final int MAX_CACHED = 10_000;

    /** A reading kept (of one event on one date, or of which seats it can take), when made, after how many changes. */
    private record Reading<T>(T value, long atNanos, long changes) {
    }

    /** An active item and how many are left: null when nothing limits it. */
    private record Left(Item item, Integer number) {

        boolean available() {
            return number == null || number > 0;
        }
    }

    private final QuotaCounter counter;
    private final FreeSeats seats;
    private final DatePrices prices;
    private final Jdbc jdbc;
    private final Deadlines deadlines;
    private final long cacheNanos;
    private final Map<String, Reading<List<Left>>> readings = new ConcurrentHashMap<>();
    private final Map<String, Reading<Takeable>> takeables = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> changes = new ConcurrentHashMap<>();

    StorefrontAvailability(QuotaCounter counter, FreeSeats seats, DatePrices prices, Jdbc jdbc, Deadlines deadlines,
            @ConfigProperty(name = "availability.cache-ttl") Duration cacheTtl) {
        this.counter = counter;
        this.seats = seats;
        this.prices = prices;
        this.jdbc = jdbc;
        this.deadlines = deadlines;
        this.cacheNanos = cacheTtl.toNanos();
    }

    /** A request changed event {@code slug} on this replica: its next reading is made afresh. */
    public void changed(String slug) {
        AtomicLong count = changes.get(slug);
        if (count != null) {
            count.incrementAndGet();
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
     * What a ticket page shows, in one read: the event's name and currency, and each active item sold in
     * {@code channel} with its name, price (on the date) and what is left.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public InventoryViews.Catalog catalog(Event event, Long dateId, String channel) {
        Map<Long, String> onDate = dateId == null ? Map.of() : prices.ofDate(dateId);
        return new InventoryViews.Catalog(new InventoryViews.CatalogEvent(event.slug, event.name, event.currency),
                cached(event, dateId, channel).stream()
                        .map(left -> new InventoryViews.CatalogItem(left.item().id, left.item().name,
                                onDate.getOrDefault(left.item().id, left.item().price.toPlainString()),
                                left.item().requiresSeat, left.available(), left.number()))
                        .toList());
    }

    /**
     * What a waiting list decides a join by (contract section 9): whether item {@code itemId} of an event without
     * dates is on sale in {@code channel} but for capacity (else the refusal an add would meet), and how many of it
     * the channel could add now (null: nothing limits it).
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public WhatIsLeft leftOf(Event event, long itemId, String channel) {
        Counting counting = counting(event, channel, Item.listForEvent(event.id));
        return new WhatIsLeft(WhatFits.notOnSale(counting.counted, itemId, null, channel),
                counting.left(itemId, null));
    }

    /** An item's state for a waiting list: the refusal an add would meet before any count, or what is left. */
    public record WhatIsLeft(ApiException notOnSale, Integer number) {
    }

    /** Kept as the catalog's readings are, so that a rush on the seat map reads the event once a second. */
    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public Takeable takeable(Event event, String channel) {
        return kept(takeables, event, event.slug + "/" + channel, () -> countTakeable(event, channel));
    }

    private Takeable countTakeable(Event event, String channel) {
        Counting counting = counting(event, channel, Item.listForEvent(event.id));
        List<Long> on = counting.dates.isEmpty() ? List.of(0L) : List.copyOf(counting.dates.keySet());
        List<Long> items = new ArrayList<>();
        List<Long> days = new ArrayList<>();
        List<String> passGuids = new ArrayList<>();
        for (ItemForSale item : counting.counted.items().values()) {
            if (!item.requiresSeat()) {
                continue;
            }
            for (long day : on) {
                Integer units = WhatFits.units(counting.counted, item.id(), day == 0 ? null : day, channel);
                if (units == null || units > 0) {
                    items.add(item.id());
                    days.add(day);
                }
            }
            if (item.everyDate() && items.contains(item.id())) {
                passGuids.addAll(counting.passGuids(item.id()));
            }
        }
        return new Takeable(items.toArray(Long[]::new), days.toArray(Long[]::new), passGuids.toArray(String[]::new));
    }

    /** The kept reading of the event on the date for the channel, or a new one. */
    private List<Left> cached(Event event, Long dateId, String channel) {
        return kept(readings, event, event.slug + "/" + dateId + "/" + channel, () -> left(event, dateId, channel));
    }

    /**
     * The reading kept under {@code key} in {@code kept} while it is younger than {@code availability.cache-ttl} and
     * nothing changed the event on this replica since; else a new one from {@code read}.
     */
    private <T> T kept(Map<String, Reading<T>> kept, Event event, String key, Supplier<T> read) {
        long now = System.nanoTime();
        long changed = changes.computeIfAbsent(event.slug, slug -> new AtomicLong()).get();
        Reading<T> reading = kept.get(key);
        if (reading != null && now - reading.atNanos() < cacheNanos && reading.changes() == changed) {
            return reading.value();
        }
        if (kept.size() >= MAX_CACHED) {
            kept.clear();
        }
        T value = read.get();
        kept.put(key, new Reading<>(value, now, changed));
        return value;
    }

    /** The active items sold in {@code channel} (contract section 12), and what each has left for it. */
    private List<Left> left(Event event, Long dateId, String channel) {
        List<Item> items = Item.listForEvent(event.id);
        Counting counting = counting(event, channel, items);
        if (dateId != null && !counting.dates.containsKey(dateId)) {
            throw new NotFoundException("date", dateId);
        }
        List<Left> left = new ArrayList<>();
        for (Item item : items) {
            if (item.active && ItemForSale.sellsIn(item.channels, channel)) {
                left.add(new Left(item, counting.left(item.id, dateId)));
            }
        }
        return left;
    }

    /** One count of the event, of its {@code items}, for one channel. */
    private Counting counting(Event event, String channel, List<Item> eventItems) {
        Map<Long, Boolean> dates = prices.onSale(event.id);
        Map<Long, ItemForSale> items = new HashMap<>();
        ItemForSale.of(jdbc, event.id, eventItems.stream().map(item -> item.id).toList()).list()
                .forEach(item -> items.put(item.id(), item));
        return new Counting(event, channel, dates,
                new WhatFits.Counted(items, counter.ofEvent(event.id), dates, deadlines.now()));
    }

    /** An event counted once, and the seats free to the channel, read once a date. */
    private final class Counting {

        private final Event event;
        private final String channel;
        private final Map<Long, Boolean> dates;
        private final WhatFits.Counted counted;
        private final Map<Long, Map<Long, Long>> freeSeats = new HashMap<>();

        Counting(Event event, String channel, Map<Long, Boolean> dates, WhatFits.Counted counted) {
            this.event = event;
            this.channel = channel;
            this.dates = dates;
            this.counted = counted;
        }

        /**
         * What item {@code itemId} has left for the channel on {@code dateId}: a pass on every date; an item of an
         * event with dates, where no date is named, on the date on sale where it has the most left.
         */
        Integer left(long itemId, Long dateId) {
            ItemForSale item = counted.items().get(itemId);
            if (item == null) {
                return 0;
            }
            if (dates.isEmpty() || item.everyDate() || dateId != null) {
                return onDate(item, item.everyDate() ? null : dateId);
            }
            Integer best = 0;
            for (Map.Entry<Long, Boolean> date : dates.entrySet()) {
                Integer onDate = date.getValue() ? onDate(item, date.getKey()) : Integer.valueOf(0);
                if (onDate == null) {
                    return null;
                }
                best = Math.max(best, onDate);
            }
            return best;
        }

        /** What fits by the quotas, and for a seated item no more than its seats free on the date (a pass: on all). */
        private Integer onDate(ItemForSale item, Long dateId) {
            Integer units = WhatFits.units(counted, item.id(), dateId, channel);
            if (!item.requiresSeat() || units != null && units == 0) {
                return units;
            }
            long free = item.everyDate()
                    ? passGuids(item.id()).size()
                    : seatsFree(dateId, map -> map.getOrDefault(item.id(), 0L));
            return units == null ? Math.toIntExact(free) : (int) Math.min(units, free);
        }

        private long seatsFree(Long dateId, Function<Map<Long, Long>, Long> ofItem) {
            return ofItem.apply(freeSeats.computeIfAbsent(dateId == null ? 0L : dateId,
                    day -> seats.byItem(event.id, dateId, channel)));
        }

        List<String> passGuids(long itemId) {
            return seats.ofPass(event.id, itemId, dates.keySet(), channel);
        }
    }
}

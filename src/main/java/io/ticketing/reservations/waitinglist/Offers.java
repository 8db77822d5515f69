package io.ticketing.reservations.waitinglist;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.CapacityFreed;
import io.ticketing.reservations.inventory.DatePrices;
import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.Membership;
import io.ticketing.reservations.inventory.QuotaCounter;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.reservation.Deadlines;
import io.ticketing.reservations.reservation.ReservationCheckpoints;
import io.ticketing.reservations.reservation.Reservations;
import io.ticketing.reservations.reservation.WhatFits;
import io.ticketing.reservations.tasks.TaskHandler;
import io.ticketing.reservations.tasks.TaskQueue;
import io.ticketing.reservations.webhooks.Webhooks;

/**
 * Offers freed capacity to an event's waiting lists (contract section 9), as a task of the queue any replica runs:
 * queued by whatever frees capacity ({@link CapacityFreed}), by an offer's deadline, and by the sweep.
 *
 * <p>One durable transaction an event: the offers that ran out become {@code expired} (their vouchers stopped
 * blocking at their deadline, so their capacity is free again); then the finite quotas of every item with waiting
 * entries are locked (contract section 2: an offer is a blocking voucher, it makes them scarcer) and counted, and the
 * entries are offered in order: across items highest priority and oldest first, within an item no entry before the
 * one ahead of it. An entry gets an offer only if its whole quantity fits in every quota of its item; if it does
 * not, no entry behind it for that item gets one this time. Each offer is a voucher of the item for the entry's
 * quantity that blocks quota, is valid for the event's {@code offer_ttl_seconds} and never gives its uses back; what
 * its item's bundle brings, the waiting list keeps back for it until it is used (V31's {@code waiting_kept}). The
 * choice is the check: each offer takes its quantity of every place one position of its item takes (its bundle's
 * included), in what the count under the locks left for everyone, and no offer is chosen that does not fit.
 *
 * <p>At most once: the entries are read {@code FOR UPDATE} after the locks, and only those still {@code waiting} are
 * offered; another replica's run of the same event waits for the same locks, then finds them offered.
 */
@ApplicationScoped
public class Offers implements TaskHandler {

    static final String KIND = "waiting_list.offer";
    private static final int ATTEMPTS = 20;
    /** The most entries of one item read in one run: a run offers at most what is free, and the next one goes on. */
    private static final int MOST_PER_ITEM = 500;

    /** Offers past their deadline: their entries expire, and what they blocked is free again. */
    private static final String EXPIRE_OFFERS = """
            UPDATE waiting_list_entries e SET status = 'expired', version = e.version + 1
            FROM vouchers v
            WHERE v.id = e.voucher_id AND e.event_id = :event AND e.status = 'offered' AND v.valid_until < now()""";
    /** An item off sale offers nothing (contract section 9): its entries wait, and its quotas are not locked for it. */
    private static final String ITEMS_WAITED_FOR = """
            SELECT w.item_id FROM item_waiting w JOIN items i ON i.id = w.item_id
            WHERE i.event_id = :event AND i.active AND w.quantity > 0 ORDER BY w.item_id""";
    /** An item's queue in offer order, locked: the first entries, as many as could get an offer. */
    private static final String QUEUE = """
            SELECT id, item_id, quantity, priority, seq FROM waiting_list_entries
            WHERE item_id = :item AND status = 'waiting' ORDER BY priority DESC, seq LIMIT :limit FOR UPDATE""";
    /**
     * The offers of one run: a voucher each, made in the entries' order, and the entries offered, in one statement
     * (one pass on the counters).
     */
    private static final String OFFER = """
            WITH wanted AS (
              SELECT * FROM unnest(:entries, :codes, :uses, :items, :seqs) AS w (entry, code, uses, item, seq)),
            offer AS (
              INSERT INTO vouchers (event_id, code, max_usages, valid_until, item_id, block_quota, gives_back)
              SELECT :event, code, uses, :until, item, true, false FROM wanted ORDER BY seq
              RETURNING id, code)
            UPDATE waiting_list_entries e SET status = 'offered', voucher_id = offer.id, version = e.version + 1
            FROM wanted w JOIN offer ON offer.code = w.code
            WHERE e.id = w.entry AND e.id = ANY(:entries) AND e.status = 'waiting'""";

    private record Waiting(String id, long itemId, int quantity, int priority, long seq) {
    }

    private final Jdbc jdbc;
    private final AdvisoryLocks locks;
    private final QuotaCounter counter;
    private final Reservations reservations;
    private final DatePrices dates;
    private final ReservationCheckpoints checkpoints;
    private final TaskQueue queue;
    private final Webhooks webhooks;
    private final WaitingListRows rows;
    private final WaitingListViews views;
    private final Deadlines deadlines;

    Offers(Jdbc jdbc, AdvisoryLocks locks, QuotaCounter counter, Reservations reservations, DatePrices dates,
            ReservationCheckpoints checkpoints, TaskQueue queue, Webhooks webhooks, WaitingListRows rows,
            WaitingListViews views, Deadlines deadlines) {
        this.jdbc = jdbc;
        this.locks = locks;
        this.counter = counter;
        this.reservations = reservations;
        this.dates = dates;
        this.checkpoints = checkpoints;
        this.queue = queue;
        this.webhooks = webhooks;
        this.rows = rows;
        this.views = views;
        this.deadlines = deadlines;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public void run(String payload) {
        offer(Long.parseLong(payload));
    }

    /** In the transaction that freed capacity: the event's lists hear of it once that commits. */
    void freed(@Observes CapacityFreed freed) {
        soon(freed.eventId(), deadlines.now());
    }

    /** Queues a run for the event at {@code when}, unless one is queued by then. */
    void soon(long eventId, Instant when) {
        queue.enqueueOnce(KIND, Long.toString(eventId), ATTEMPTS, when);
    }

    /** One run for the event, as the class comment says; returns the entries offered. */
    @DurableTransaction
    public int offer(long eventId) {
        jdbc.statement(EXPIRE_OFFERS).set("event", eventId).update();
        List<Long> itemIds = jdbc.statement(ITEMS_WAITED_FOR).set("event", eventId).list(row -> row.getLong(1));
        if (itemIds.isEmpty()) {
            return 0;
        }
        Set<LockTarget> locked = counter.membershipsOf(itemIds).list().stream().filter(Membership::isFinite)
                .map(Membership::lockTarget).collect(Collectors.toSet());
        checkpoints.beforeLocks(eventId, 1);
        // An offer blocks on every date: every date's shared lock makes a quota created on one meanwhile wait for it.
        AdvisoryLocks.Held held = locks.lockObjectsThen(eventId, dates.allOf(eventId), locked, jdbc.roundTrip());
        List<CountedQuota> quotas = counter.ofItems(itemIds, List.of());
        reservations.requireLocked(quotas.stream().filter(CountedQuota::isFinite)
                .map(CountedQuota::lockTarget).toList(), held);
        Map<Long, ItemForSale> items = ItemForSale.of(jdbc, eventId, itemIds).list().stream()
                .collect(Collectors.toMap(ItemForSale::id, item -> item));
        WhatFits.Counted counted = new WhatFits.Counted(items, quotas, Map.of(), deadlines.now());
        // What no allotment keeps and no running offer keeps back for what its bundle brings.
        Map<Long, Integer> free = new HashMap<>();
        quotas.stream().filter(CountedQuota::isFinite).forEach(quota -> free.put(quota.id(),
                (int) Math.max(0, quota.availability().leftForEveryone() - quota.keptByOffers())));
        Map<Long, Deque<Waiting>> queues = queues(itemIds, counted, free);
        List<Waiting> offered = choose(queues, counted, free);
        checkpoints.afterChecks(eventId, 1);
        if (offered.isEmpty()) {
            return 0;
        }
        Event event = Event.findById(eventId);
        Instant until = deadlines.inSeconds(event.offerTtlSeconds).truncatedTo(ChronoUnit.MICROS);
        List<String> entries = offered.stream().map(Waiting::id).toList();
        jdbc.statement(OFFER).set("event", eventId).set("until", until)
                .set("entries", entries.toArray(String[]::new))
                .set("codes", offered.stream().map(waiting -> "WL-" + RandomIds.next()).toArray(String[]::new))
                .set("uses", offered.stream().map(Waiting::quantity).toArray(Integer[]::new))
                .set("items", offered.stream().map(Waiting::itemId).toArray(Long[]::new))
                .set("seqs", offered.stream().map(Waiting::seq).toArray(Long[]::new)).update();
        entries.forEach(id -> webhooks.publish("waiting_list.offered",
                () -> views.of(rows.find(eventId, id).orElseThrow())));
        // When the offers run out unused, their capacity goes to the next entries.
        soon(eventId, until.plusSeconds(1));
        return offered.size();
    }

    /**
     * Each item's first waiting entries, locked, in offer order: as many as could fit in what its quotas have left
     * (each entry wants at least one), and one more, to know the head that does not fit.
     */
    private Map<Long, Deque<Waiting>> queues(List<Long> itemIds, WhatFits.Counted counted, Map<Long, Integer> free) {
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        Map<Long, Jdbc.Rows<Waiting>> read = new TreeMap<>();
        for (long itemId : itemIds) {
            int room = WhatFits.places(counted, itemId, null).entrySet().stream()
                    .mapToInt(places -> free.get(places.getKey().id()) / places.getValue()).min()
                    .orElse(MOST_PER_ITEM);
            read.put(itemId, reads.add(jdbc.statement(QUEUE).set("item", itemId)
                    .set("limit", Math.min(MOST_PER_ITEM, room + 1))
                    .reading(row -> new Waiting(row.getString(1), row.getLong(2), row.getInt(3), row.getInt(4),
                            row.getLong(5)))));
        }
        reads.send();
        Map<Long, Deque<Waiting>> queues = new TreeMap<>();
        read.forEach((itemId, entries) -> queues.put(itemId, new ArrayDeque<>(entries.all())));
        return queues;
    }

    /**
     * The entries to offer, taking from {@code free} what each takes: the heads of the items' queues, highest
     * priority and oldest first; an item whose head does not fit (or is not on sale) offers nothing more. An entry
     * takes its quantity in every place one position of its item takes (what its bundle brings included), by the
     * expansion an add is judged by ({@link WhatFits}).
     */
    private static List<Waiting> choose(Map<Long, Deque<Waiting>> queues, WhatFits.Counted counted,
            Map<Long, Integer> free) {
        Comparator<Waiting> order = Comparator.comparingInt(Waiting::priority).reversed()
                .thenComparingLong(Waiting::seq);
        PriorityQueue<Waiting> heads = new PriorityQueue<>(order);
        queues.values().stream().map(Deque::peekFirst).filter(Objects::nonNull).forEach(heads::add);
        List<Waiting> offered = new ArrayList<>();
        while (!heads.isEmpty()) {
            Waiting head = heads.poll();
            Map<CountedQuota, Integer> places = WhatFits.places(counted, head.itemId(), null);
            ItemForSale item = counted.items().get(head.itemId());
            // An entry of a seated item (joined before they were refused) waits: an offer could not hold its seats.
            boolean fits = item != null && !item.requiresSeat()
                    && WhatFits.notOnSale(counted, head.itemId(), null, null) == null
                    && places.entrySet().stream().allMatch(
                            place -> free.get(place.getKey().id()) >= head.quantity() * place.getValue());
            if (!fits) {
                continue; // and nothing behind it: its item's next entry never becomes a head
            }
            places.forEach((quota, each) -> free.merge(quota.id(), -head.quantity() * each, Integer::sum));
            offered.add(head);
            Deque<Waiting> rest = queues.get(head.itemId());
            rest.pollFirst();
            if (!rest.isEmpty()) {
                heads.add(rest.peekFirst());
            }
        }
        return offered;
    }
}

package io.ticketing.reservations.inventory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.organizer.KnownChannels;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.Taken;
import io.ticketing.reservations.problem.ValidationException;

/** The seating plan. New seats only add capacity, so creating them takes no lock. */
@ApplicationScoped
public class SeatService {

    private final InventoryRows rows;
    private final CapacityGuard reservations;
    private final DatePrices dates;
    private final KnownChannels channels;
    private final SeatsShownFree shownFree;

    SeatService(InventoryRows rows, CapacityGuard reservations, DatePrices dates, KnownChannels channels,
            SeatsShownFree shownFree) {
        this.shownFree = shownFree;
        this.channels = channels;
        this.rows = rows;
        this.reservations = reservations;
        this.dates = dates;
    }

    /** Seats of one date or of none each ({@code date_id} on the seat, else on the request): a guid once per date. */
    @Transactional
    public List<InventoryViews.SeatView> create(Event event, InventoryRequests.NewSeats request, String channel) {
        List<InventoryRequests.NewSeat> seats = request.seats();
        requireSeatedItems(event, seats);
        channels.require(event.organizerId, seats.stream().filter(seat -> seat.channels() != null)
                .flatMap(seat -> seat.channels().stream()).toList());
        Map<Long, List<InventoryRequests.NewSeat>> byDate = new LinkedHashMap<>();
        Set<String> guids = new LinkedHashSet<>();
        for (int i = 0; i < seats.size(); i++) {
            Long date = dateOf(seats.get(i), request);
            if (!guids.add(date + "/" + seats.get(i).guid())) {
                throw new ValidationException("seats[" + i + "].guid", "appears twice on one date in this request");
            }
            byDate.computeIfAbsent(date, d -> new ArrayList<>()).add(seats.get(i));
        }
        List<Long> named = byDate.keySet().stream().filter(Objects::nonNull).toList();
        if (!named.isEmpty()) {
            dates.requireDatesOf(event.id, named);
        }
        byDate.forEach((date, ofDate) -> {
            List<String> existing = rows.existingSeats(event.id, date,
                    ofDate.stream().map(InventoryRequests.NewSeat::guid).toList());
            if (!existing.isEmpty()) {
                throw Taken.seats(existing);
            }
        });
        byDate.forEach((date, ofDate) -> rows.insertSeats(event.id, date, ofDate));
        SeatsShownFree.Takeable takeable = shownFree.takeable(event, channel);
        Map<String, InventoryViews.SeatView> made = new HashMap<>();
        byDate.forEach((date, ofDate) -> rows.seats(event.id, date,
                ofDate.stream().map(InventoryRequests.NewSeat::guid).toList(), channel, takeable)
                .forEach(seat -> made.put(date + "/" + seat.guid(), seat)));
        return seats.stream().map(seat -> made.get(dateOf(seat, request) + "/" + seat.guid())).toList();
    }

    /** The date a new seat belongs to: its own {@code date_id}, else the request's, else none. */
    private static Long dateOf(InventoryRequests.NewSeat seat, InventoryRequests.NewSeats request) {
        return seat.dateId() != null ? seat.dateId() : request.dateId();
    }

    /**
     * An item's free numbered seats on {@code dateId} (of no date when null) that {@code channel} sells, for best
     * available to send with the exclusive lock of that date (of the event, without one).
     */
    public Jdbc.Query<BestSeats.FreeSeat> freeSeats(Event event, long itemId, String section, Long dateId,
            String channel) {
        Item.findInEvent(event.id, itemId).orElseThrow(() -> new NotFoundException("item", itemId));
        return rows.freeSeats(event.id, itemId, section, dateId, channel);
    }

    /**
     * Reads never lock: a seat shown free may be taken a moment later, and adding it then says so. With
     * {@code dateId}, the seats of that date; without, every seat of the event. A seat is available to
     * {@code channel} where an add of it alone would be judged to fit now (contract section 3): the seat is free and
     * sold there, and its item can take one more on its date ({@link SeatsShownFree}).
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<InventoryViews.SeatView> list(Event event, Long dateId, boolean onlyAvailable, String channel,
            PageRequest page) {
        return Page.of(rows.seatPage(event.id, dateId == null, dateId, page.afterAscending(), page.fetchSize(),
                onlyAvailable, channel, shownFree.takeable(event, channel)), page, InventoryRows.SeatRow::id)
                .map(InventoryRows.SeatRow::view);
    }

    /** The seat {@code guid} of {@code dateId} (of no date when null). */
    @Transactional(Transactional.TxType.SUPPORTS)
    public InventoryViews.SeatView get(Event event, Long dateId, String guid, String channel) {
        return rows.seat(event.id, dateId, guid, channel, shownFree.takeable(event, channel))
                .orElseThrow(() -> new NotFoundException("seat", guid));
    }

    /**
     * Renaming locks nothing; blocking makes the seat scarcer, so it takes the seat's lock and is refused while
     * the seat is held, sold or reserved by a voucher. Unblocking frees it.
     */
    @DurableTransaction
    public InventoryViews.SeatView update(Event event, Long dateId, String guid, IfMatch ifMatch,
            InventoryRequests.SeatChanges changes, String channel) {
        Seat seat = Seat.findByGuid(event.id, dateId, guid).orElseThrow(() -> new NotFoundException("seat", guid));
        ifMatch.check(seat.version);
        if (Boolean.TRUE.equals(changes.blocked()) && !seat.blocked) {
            reservations.reserveForBlocking(seat);
        }
        if (changes.name() != null) {
            seat.name = changes.name().strip();
        }
        if (changes.blocked() != null) {
            seat.blocked = changes.blocked();
        }
        if (changes.channels() != null) {
            // Keeping a seat for channels takes nothing of a quota: holds and sales elsewhere stay, as an item's do.
            seat.channels = channels.sellingIn(event.organizerId, changes.channels().orElse(null));
        }
        seat.flush();
        return get(event, dateId, guid, channel);
    }

    /** The seats' items must each be of the event and sold with seats; else 404 or 400 naming the seat. */
    private static void requireSeatedItems(Event event, List<InventoryRequests.NewSeat> seats) {
        Set<Long> itemIds = seats.stream().map(InventoryRequests.NewSeat::itemId).collect(Collectors.toSet());
        Map<Long, Item> items = EventOwnedEntity.byIds(Item.class, event.id, itemIds);
        for (int i = 0; i < seats.size(); i++) {
            Long itemId = seats.get(i).itemId();
            Item item = items.get(itemId);
            if (item == null) {
                throw new NotFoundException("item", itemId);
            }
            if (!item.requiresSeat) {
                throw new ValidationException("seats[" + i + "].item_id",
                        "item " + itemId + " is sold without seats; set requires_seat on it to sell seats");
            }
        }
    }
}

package io.ticketing.reservations.inventory;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.Taken;
import io.ticketing.reservations.problem.ValidationException;

/** The seating plan. New seats only add capacity, so creating them takes no lock. */
@ApplicationScoped
public class SeatService {

    private final InventoryRows rows;
    private final CapacityGuard reservations;

    SeatService(InventoryRows rows, CapacityGuard reservations) {
        this.rows = rows;
        this.reservations = reservations;
    }

    @Transactional
    public List<InventoryViews.SeatView> create(Event event, InventoryRequests.NewSeats request) {
        List<InventoryRequests.NewSeat> seats = request.seats();
        requireSeatedItems(event, seats);
        Set<String> guids = new LinkedHashSet<>();
        for (int i = 0; i < seats.size(); i++) {
            if (!guids.add(seats.get(i).guid())) {
                throw new ValidationException("seats[" + i + "].guid", "appears twice in this request");
            }
        }
        List<String> existing = rows.existingSeats(event.id, List.copyOf(guids));
        if (!existing.isEmpty()) {
            throw Taken.seats(existing);
        }
        rows.insertSeats(event.id, seats);
        return seats.stream().map(seat -> new InventoryViews.SeatView(seat.guid(), seat.name().strip(), seat.itemId(),
                seat.section(), seat.row(), seat.number(), Boolean.TRUE.equals(seat.blocked()),
                !Boolean.TRUE.equals(seat.blocked()), 0)).toList();
    }

    /** An item's free numbered seats, for best available to send with the event's exclusive lock. */
    public Jdbc.Query<BestSeats.FreeSeat> freeSeats(Event event, long itemId, String section) {
        Item.findInEvent(event.id, itemId).orElseThrow(() -> new NotFoundException("item", itemId));
        return rows.freeSeats(event.id, itemId, section);
    }

    /** Reads never lock: a seat shown free may be taken a moment later, and adding it then says so. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<InventoryViews.SeatView> list(Event event, boolean onlyAvailable, PageRequest page) {
        return Page.of(rows.seatPage(event.id, page.afterAscending(), page.fetchSize(), onlyAvailable), page,
                InventoryRows.SeatRow::id).map(InventoryRows.SeatRow::view);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public InventoryViews.SeatView get(Event event, String guid) {
        return rows.seat(event.id, guid).orElseThrow(() -> new NotFoundException("seat", guid));
    }

    /**
     * Renaming locks nothing; blocking makes the seat scarcer, so it takes the seat's lock and is refused while
     * the seat is held, sold or reserved by a voucher. Unblocking frees it.
     */
    @DurableTransaction
    public InventoryViews.SeatView update(Event event, String guid, IfMatch ifMatch,
            InventoryRequests.SeatChanges changes) {
        Seat seat = Seat.findByGuid(event.id, guid).orElseThrow(() -> new NotFoundException("seat", guid));
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
        seat.flush();
        return get(event, guid);
    }

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

package io.ticketing.reservations.inventory;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;

/** The seating plan. New seats only add capacity, so creating them takes no lock. */
@ApplicationScoped
public class SeatService {

    /** One statement for the whole plan: a 10,000-seat venue is one round trip, not 10,000. */
    private static final String INSERT_SEATS = """
            INSERT INTO seats (event_id, guid, name, item_id, blocked)
            SELECT :event, s.guid, s.name, s.item_id, s.blocked
            FROM unnest(:guids, :names, :items, :blocked) AS s (guid, name, item_id, blocked)""";

    private static final String EXISTING_GUIDS = "SELECT guid FROM seats WHERE event_id = :event AND guid = ANY(:guids)";

    /** A page of seats after a cursor. The availability of each seat is worked out once, then filtered on. */
    private static final String LIST = """
            SELECT id, guid, name, item_id, blocked, version, available FROM (
              SELECT s.id, s.guid, s.name, s.item_id, s.blocked, s.version, NOT %s AS available FROM seats s
              WHERE s.event_id = :event AND s.id > :after) plan
            WHERE available OR NOT :onlyAvailable ORDER BY id LIMIT :limit""".formatted(SeatHolds.UNAVAILABLE);

    private static final String ONE = """
            SELECT s.id, s.guid, s.name, s.item_id, s.blocked, s.version, NOT %s AS available FROM seats s
            WHERE s.event_id = :event AND s.guid = :guid""".formatted(SeatHolds.UNAVAILABLE);

    private record Row(long id, InventoryViews.SeatView view) {
    }

    private final EntityManager entityManager;
    private final CapacityGuard reservations;

    SeatService(EntityManager entityManager, CapacityGuard reservations) {
        this.entityManager = entityManager;
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
        List<?> existing = entityManager.createNativeQuery(EXISTING_GUIDS).setParameter("event", event.id)
                .setParameter("guids", guids.toArray(String[]::new)).setMaxResults(10).getResultList();
        if (!existing.isEmpty()) {
            throw new ApiException(409, "seat_exists", "Conflict", "These seats exist already: " + existing);
        }
        entityManager.createNativeQuery(INSERT_SEATS).setParameter("event", event.id)
                .setParameter("guids", guids.toArray(String[]::new))
                .setParameter("names", seats.stream().map(seat -> seat.name().strip()).toArray(String[]::new))
                .setParameter("items", seats.stream().map(InventoryRequests.NewSeat::itemId).toArray(Long[]::new))
                .setParameter("blocked", seats.stream().map(seat -> Boolean.TRUE.equals(seat.blocked()))
                        .toArray(Boolean[]::new))
                .executeUpdate();
        return seats.stream().map(seat -> new InventoryViews.SeatView(seat.guid(), seat.name().strip(), seat.itemId(),
                Boolean.TRUE.equals(seat.blocked()), !Boolean.TRUE.equals(seat.blocked()), 0)).toList();
    }

    /** Reads never lock: a seat shown free may be taken a moment later, and adding it then says so. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<InventoryViews.SeatView> list(Event event, boolean onlyAvailable, PageRequest page) {
        List<Row> rows = rows(entityManager.createNativeQuery(LIST).setParameter("event", event.id)
                .setParameter("after", page.afterAscending()).setParameter("limit", page.fetchSize())
                .setParameter("onlyAvailable", onlyAvailable));
        return Page.of(rows, page, Row::id).map(Row::view);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public InventoryViews.SeatView get(Event event, String guid) {
        return rows(entityManager.createNativeQuery(ONE).setParameter("event", event.id).setParameter("guid", guid))
                .stream().findFirst().map(Row::view).orElseThrow(() -> new NotFoundException("seat", guid));
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

    private static List<Row> rows(Query query) {
        List<?> rows = query.setParameter("own", new Long[0]).setParameter("vouchers", new Long[0]).getResultList();
        return rows.stream().map(Object[].class::cast)
                .map(row -> new Row(((Number) row[0]).longValue(), new InventoryViews.SeatView((String) row[1],
                        (String) row[2], ((Number) row[3]).longValue(), (Boolean) row[4], (Boolean) row[6],
                        ((Number) row[5]).longValue())))
                .toList();
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

package io.ticketing.reservations.dates;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.inventory.CapacityGuard;
import io.ticketing.reservations.inventory.DatePrices;
import io.ticketing.reservations.inventory.EventOwnedEntity;
import io.ticketing.reservations.inventory.ExpiredHolds;
import io.ticketing.reservations.inventory.Item;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.InUseException;
import io.ticketing.reservations.problem.InventoryChanged;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;
import io.ticketing.reservations.seating.SeatingPlanService;

/**
 * The dates of an event series (contract section 10). A date's edits take no inventory lock: turning one off or on
 * makes no quota, seat or voucher scarcer (a pass counts and is checked on every date, on sale or not). A new date
 * holds the event shared while it gets its seats from the event's seating plan, which replacing the plan holds
 * exclusively; an event's first date holds it exclusively, since the event becomes a series only while nothing of no
 * date is held or sold, and takes the seats the event had without dates.
 */
@ApplicationScoped
public class DateService {

    /**
     * A date is in use while a quota, seat or voucher belongs to it, or a live hold, any order position or a check-in
     * list names it.
     * The seating plan's seats on it (contract section 13) go with it, unless a voucher is bound to one.
     */
    private static final String IN_USE = """
            SELECT EXISTS (SELECT 1 FROM quotas WHERE date_id = :id)
                OR EXISTS (SELECT 1 FROM seats WHERE date_id = :id AND category IS NULL)
                OR EXISTS (SELECT 1 FROM vouchers v JOIN seats s ON s.id = v.seat_id WHERE s.date_id = :id)
                OR EXISTS (SELECT 1 FROM vouchers WHERE date_id = :id)
                OR EXISTS (SELECT 1 FROM cart_positions WHERE date_id = :id AND expires >= now())
                OR EXISTS (SELECT 1 FROM order_positions WHERE date_id = :id)
                OR EXISTS (SELECT 1 FROM checkin_lists WHERE date_id = :id)""";

    /**
     * Whether a position of no date is held (live) or in a pending or paid order of the event: it counts on every date
     * of a series, a seat of its as on every date, so the event may not become one (contract section 10).
     */
    private static final String SOLD_WITHOUT_A_DATE = """
            SELECT EXISTS (SELECT 1 FROM carts k JOIN cart_positions c ON c.cart_id = k.id
                           WHERE k.event_id = :event AND c.date_id IS NULL AND c.expires >= now())
                OR EXISTS (SELECT 1 FROM orders o JOIN order_positions p ON p.order_id = o.id
                           WHERE o.event_id = :event AND p.date_id IS NULL AND o.status IN ('pending', 'paid'))
                OR EXISTS (SELECT 1 FROM waiting_list_entries w
                           WHERE w.event_id = :event AND w.status IN ('waiting', 'offered'))""";

    private final DatePrices prices;
    private final Jdbc jdbc;
    private final ExpiredHolds expiredHolds;
    private final SeatingPlanService seating;
    private final CapacityGuard guard;

    DateService(DatePrices prices, Jdbc jdbc, ExpiredHolds expiredHolds, SeatingPlanService seating,
            CapacityGuard guard) {
        this.guard = guard;
        this.seating = seating;
        this.prices = prices;
        this.jdbc = jdbc;
        this.expiredHolds = expiredHolds;
    }

    /**
     * A durable transaction: a new date holds the event shared while it is seated from the plan (see
     * {@link SeatingPlanService}), and the first one exclusively, since the event becomes a series only while no
     * position of no date is held, pending or paid and no waiting-list entry waits or holds an offer (contract section
     * 10: else 409 {@code event_has_sales}; a series has no waiting list, so an offer could no longer be bought). Its
     * seats of no date become the first date's.
     */
    @DurableTransaction
    public DateView create(Event event, DateRequests.NewDate request) {
        requireOrdered(request.startsAt(), request.endsAt());
        boolean first = prices.allOf(event.id).isEmpty();
        EventDate date = new EventDate();
        date.eventId = event.id;
        date.name = request.name().strip();
        date.startsAt = request.startsAt();
        date.endsAt = request.endsAt();
        date.active = !Boolean.FALSE.equals(request.active());
        guard.reserveForNewDate(event.id, first, () -> {
            if (prices.allOf(event.id).isEmpty() != first) {
                throw new InventoryChanged(); // a date came or went before the lock: run again as what it is now
            }
            if (first && jdbc.statement(SOLD_WITHOUT_A_DATE).set("event", event.id).list(row -> row.getBoolean(1))
                    .get(0)) {
                throw new ApiException(409, "event_has_sales", "Conflict", "Event " + event.slug + " holds or sold"
                        + " positions without a date, or its waiting list is open; it becomes a series once none is"
                        + " held, pending or paid and no entry waits or holds an offer.");
            }
            date.persistAndFlush();
            changePrices(event, date, request.prices());
            seating.seatNewDate(event, date.id, first);
        });
        return view(date);
    }

    /** The event's dates in the order they were created. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<DateView> list(Event event, PageRequest page) {
        return Page.of(EventOwnedEntity.pageOf(EventDate.class, event.id, page).stream().map(this::view).toList(),
                page, DateView::id);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public DateView get(Event event, long dateId) {
        return view(date(event, dateId));
    }

    @Transactional
    public DateView update(Event event, long dateId, IfMatch ifMatch, DateRequests.DateChanges changes) {
        EventDate date = date(event, dateId);
        ifMatch.check(date.version);
        if (changes.name() != null) {
            date.name = changes.name().strip();
        }
        if (changes.startsAt() != null) {
            date.startsAt = changes.startsAt();
        }
        if (changes.endsAt() != null) {
            date.endsAt = changes.endsAt().orElse(null);
        }
        if (changes.active() != null) {
            date.active = changes.active();
        }
        requireOrdered(date.startsAt, date.endsAt);
        if (changes.prices() != null && !changes.prices().isEmpty()) {
            // Its prices are part of it: a price change is an edit of the date, with a new version.
            EventDate.getEntityManager().lock(date, LockModeType.OPTIMISTIC_FORCE_INCREMENT);
        }
        changePrices(event, date, changes.prices());
        date.flush();
        return view(date);
    }

    /** Only a date nothing belongs to or names (expired holds go with it); otherwise 409 {@code in_use}. */
    @Transactional
    public void delete(Event event, long dateId) {
        EventDate date = date(event, dateId);
        if (jdbc.statement(IN_USE).set("id", date.id).list(row -> row.getBoolean(1)).get(0)) {
            throw new InUseException("Date " + date.id + " has quotas, seats or vouchers of its own, was held or"
                    + " sold, or a check-in list names it; deactivate it instead (PATCH with \"active\": false).");
        }
        expiredHolds.deleteOf(ExpiredHolds.Of.DATE, date.id);
        seating.unseatDate(event, date.id, prices.allOf(event.id).size() == 1);
        date.delete();
        date.flush();
    }

    private EventDate date(Event event, long dateId) {
        return EventDate.findInEvent(event.id, dateId).orElseThrow(() -> new NotFoundException("date", dateId));
    }

    private void changePrices(Event event, EventDate date, Map<Long, String> changes) {
        if (changes == null) {
            return;
        }
        changes.forEach((itemId, price) -> {
            if (Item.findInEvent(event.id, itemId).isEmpty()) {
                throw new NotFoundException("item", itemId);
            }
            prices.change(date.id, itemId, price);
        });
    }

    private DateView view(EventDate date) {
        return DateView.of(date, prices.ofDate(date.id));
    }

    private static void requireOrdered(java.time.Instant startsAt, java.time.Instant endsAt) {
        if (endsAt != null && endsAt.isBefore(startsAt)) {
            throw new ValidationException("ends_at", "must not be before starts_at");
        }
    }
}

package io.ticketing.reservations.seating;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.CapacityGuard;
import io.ticketing.reservations.inventory.DatePrices;
import io.ticketing.reservations.inventory.Item;
import io.ticketing.reservations.inventory.SeatsShownFree;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.Problem.FieldError;
import io.ticketing.reservations.problem.ValidationException;
import io.ticketing.reservations.seating.SeatingPlanRows.ItemSeat;

/**
 * Seating plans (contract section 13): a plan in pretix's format becomes the event's seats, on every date of an
 * event with dates. Importing or replacing one is one change under the event's exclusive lock: seats that stay keep
 * their holds and sales, and a seat in use that would leave or change item refuses the whole change. Reading one
 * takes no lock.
 */
@ApplicationScoped
public class SeatingPlanService {

    /** Far more than any hall; bounds what one request can make the service build. */
    static final int MAX_SEATS = 100_000;

    private final PlanSchema schema;
    private final SeatingPlanRows rows;
    private final CapacityGuard guard;
    private final DatePrices dates;
    private final ObjectMapper json;
    private final SeatsShownFree shownFree;

    SeatingPlanService(PlanSchema schema, SeatingPlanRows rows, CapacityGuard guard, DatePrices dates,
            ObjectMapper json, SeatsShownFree shownFree) {
        this.shownFree = shownFree;
        this.schema = schema;
        this.rows = rows;
        this.guard = guard;
        this.dates = dates;
        this.json = json;
    }

    /**
     * A plan as stored, and the date whose seats its answer shows: the one asked for, or after a {@code PUT} the
     * event's first (none without dates).
     */
    record Saved(SeatingPlanRows.StoredPlan plan, Long dateId) {
    }

    /** Imports {@code request} as the event's plan, or replaces the one it has. */
    @DurableTransaction
    public Saved put(Event event, SeatingPlanRequest request, IfMatch ifMatch) {
        List<ItemSeat> seats = seatsOf(event, request.plan(), request.categories());
        String plan = write(request.plan());
        String categories = write(request.categories());
        Saved[] saved = new Saved[1];
        guard.reserveForSeating(event.id, () -> {
            rows.plan(event.id).ifPresent(stored -> ifMatch.check(stored.version()));
            List<Long> eventDates = replaceSeats(event, seats);
            saved[0] = new Saved(rows.save(event.id, plan, categories), eventDates.stream().findFirst().orElse(null));
        });
        return saved[0];
    }

    /** Deletes the plan and its seats, unless one of them is in use. */
    @DurableTransaction
    public void delete(Event event) {
        guard.reserveForSeating(event.id, () -> {
            if (rows.plan(event.id).isEmpty()) {
                throw new NotFoundException("seating_plan", event.slug);
            }
            replaceSeats(event, List.of());
            rows.delete(event.id);
        });
    }

    /** The plan with its seats of {@code dateId} (the event's, without dates) as {@code channel} can take them. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public SeatingPlanView get(Event event, Long dateId, String channel) {
        SeatingPlanRows.StoredPlan plan = rows.plan(event.id)
                .orElseThrow(() -> new NotFoundException("seating_plan", event.slug));
        if (dateId != null) {
            dates.requireDatesOf(event.id, List.of(dateId));
        } else if (!dates.allOf(event.id).isEmpty()) {
            throw new ValidationException("date_id", "is required: each date of this event has its own seats");
        }
        return view(event, new Saved(plan, dateId), channel);
    }

    /**
     * The plan with its seats of {@code plan.dateId()} as {@code channel} can take them; after a {@code PUT}, read
     * once its transaction has released the event.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public SeatingPlanView view(Event event, Saved plan, String channel) {
        return new SeatingPlanView(plan.plan().plan(), plan.plan().categories(), plan.plan().version(),
                rows.drawn(event.id, plan.dateId(), channel, shownFree.takeable(event, channel)));
    }

    /**
     * The stored plan's seats on a new date of the event, if it has a plan (contract sections 10 and 13), under the
     * event's lock ({@code CapacityGuard.reserveForNewDate}): a plan replaced meanwhile would otherwise miss the date
     * (it read the dates before this one committed) while the date got the plan it replaced. The {@code first} date of
     * an event takes the seats the event had without dates, which nothing holds or sold any more: an event that
     * becomes a series keeps its seats, on its first date.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void seatNewDate(Event event, long dateId, boolean first) {
        if (first) {
            rows.dateUndatedSeats(event.id, dateId);
        }
        rows.plan(event.id).ifPresent(stored -> {
            try {
                JsonNode plan = json.readTree(stored.plan());
                Map<String, Long> categories = new HashMap<>();
                // A category whose item is gone (deleted before items a plan maps were in use) seats nothing: the
                // new date is made without those seats rather than never.
                json.readTree(stored.categories()).fields().forEachRemaining(entry -> {
                    if (Item.findInEvent(event.id, entry.getValue().asLong()).isPresent()) {
                        categories.put(entry.getKey(), entry.getValue().asLong());
                    }
                });
                rows.addTo(event.id, new Long[]{dateId}, withItems(PlannedSeats.read(plan, new ArrayList<>()),
                        categories));
            } catch (JsonProcessingException notJson) {
                throw new IllegalStateException("a stored seating plan is not JSON", notJson);
            }
        });
    }

    /**
     * The plan's seats on a date being deleted, which nothing else uses (the date's own check); of the {@code last}
     * date, they become the event's seats without dates, so that an event that stops being a series keeps its plan.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void unseatDate(Event event, long dateId, boolean last) {
        if (last) {
            rows.undateSeatsOf(event.id, dateId);
        } else {
            rows.deleteOfDate(dateId);
        }
    }

    /** Makes the event's seats {@code seats} unless one in use would leave or change item; answers the dates. */
    private List<Long> replaceSeats(Event event, List<ItemSeat> seats) {
        List<Long> eventDates = dates.allOf(event.id);
        List<String> inUse = rows.inUseAndChanged(event.id, !eventDates.isEmpty(), seats);
        if (!inUse.isEmpty()) {
            throw new SeatsInUse(inUse);
        }
        rows.replace(event.id, eventDates, seats);
        return eventDates;
    }

    /** The plan's seats with their items, or 400 naming every problem by its JSON path. */
    private List<ItemSeat> seatsOf(Event event, JsonNode plan, Map<String, Long> categories) {
        List<FieldError> errors = new ArrayList<>(schema.problems(plan));
        if (!errors.isEmpty()) {
            throw new ValidationException(errors);
        }
        List<PlannedSeats.PlanSeat> seats = PlannedSeats.read(plan, errors);
        if (seats.size() > MAX_SEATS) {
            errors.add(new FieldError("plan.zones", "has " + seats.size() + " seats; at most " + MAX_SEATS));
        }
        Set<String> defined = PlannedSeats.categoriesOf(plan);
        categories.forEach((name, itemId) -> {
            String field = "categories." + name;
            if (!defined.contains(name)) {
                errors.add(new FieldError(field, "is not one of the plan's categories " + defined));
            }
            Item item = Item.findInEvent(event.id, itemId).orElse(null);
            if (item == null) {
                errors.add(new FieldError(field, "item " + itemId + " is not an item of this event"));
            } else if (!item.requiresSeat) {
                errors.add(new FieldError(field, "item " + itemId + " is sold without seats; map the category to"
                        + " an item that requires a seat"));
            }
        });
        seats.stream().map(PlannedSeats.PlanSeat::category).filter(defined::contains).distinct()
                .filter(category -> !categories.containsKey(category))
                .forEach(category -> errors.add(new FieldError("categories." + category,
                        "is missing: the plan's seats of this category need an item that requires a seat")));
        if (!errors.isEmpty()) {
            throw new ValidationException(errors);
        }
        return withItems(seats, categories);
    }

    private static List<ItemSeat> withItems(List<PlannedSeats.PlanSeat> seats, Map<String, Long> categories) {
        return seats.stream().filter(seat -> categories.containsKey(seat.category()))
                .map(seat -> new ItemSeat(seat, categories.get(seat.category()))).toList();
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException unexpected) {
            throw new IllegalStateException("a parsed plan could not be written back", unexpected);
        }
    }
}

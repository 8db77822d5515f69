package io.ticketing.reservations.checkin;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.dates.EventDate;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.inventory.EventOwnedEntity;
import io.ticketing.reservations.inventory.Item;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;

/**
 * Check-in lists (contract section 14). Their edits take no lock beyond the list's version: a list consumes nothing,
 * and a scan reads its rules once, at its start.
 */
@ApplicationScoped
public class CheckinListService {

    private final CheckinRows rows;

    CheckinListService(CheckinRows rows) {
        this.rows = rows;
    }

    @Transactional
    public CheckinListView create(Event event, CheckinListRequests.NewList request) {
        CheckinList list = new CheckinList();
        list.eventId = event.id;
        list.name = request.name().strip();
        list.items = itemsOf(event, request.items());
        list.dateId = dateOf(event, request.dateId());
        list.allowPending = Boolean.TRUE.equals(request.allowPending());
        list.allowMultipleEntries = Boolean.TRUE.equals(request.allowMultipleEntries());
        list.allowEntryAfterExit = !Boolean.FALSE.equals(request.allowEntryAfterExit());
        list.persistAndFlush();
        return view(event, list);
    }

    /** The event's lists in the order they were made, each with its counts. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<CheckinListView> list(Event event, PageRequest page) {
        return Page.of(EventOwnedEntity.pageOf(CheckinList.class, event.id, page).stream()
                .map(list -> view(event, list)).toList(), page, CheckinListView::id);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public CheckinListView get(Event event, long listId) {
        return view(event, list(event, listId));
    }

    @Transactional
    public CheckinListView update(Event event, long listId, IfMatch ifMatch, CheckinListRequests.ListChanges changes) {
        CheckinList list = list(event, listId);
        ifMatch.check(list.version);
        if (changes.name() != null) {
            list.name = changes.name().strip();
        }
        if (changes.items() != null) {
            list.items = itemsOf(event, changes.items().orElse(null));
        }
        if (changes.dateId() != null) {
            list.dateId = dateOf(event, changes.dateId().orElse(null));
        }
        if (changes.allowPending() != null) {
            list.allowPending = changes.allowPending();
        }
        if (changes.allowMultipleEntries() != null) {
            list.allowMultipleEntries = changes.allowMultipleEntries();
        }
        if (changes.allowEntryAfterExit() != null) {
            list.allowEntryAfterExit = changes.allowEntryAfterExit();
        }
        list.flush();
        return view(event, list);
    }

    /** The list with its scans and what they say of each ticket. */
    @Transactional
    public void delete(Event event, long listId) {
        CheckinList list = list(event, listId);
        rows.deleteScansOf(list.id);
        list.delete();
        list.flush();
    }

    private static CheckinList list(Event event, long listId) {
        return CheckinList.findInEvent(event.id, listId)
                .orElseThrow(() -> new NotFoundException("check-in list", listId));
    }

    private static List<Long> itemsOf(Event event, List<Long> items) {
        if (items == null) {
            return null;
        }
        List<Long> distinct = items.stream().distinct().sorted().toList();
        if (EventOwnedEntity.byIds(Item.class, event.id, distinct).size() != distinct.size()) {
            throw new ValidationException("items", "names an item that is not this event's");
        }
        return distinct;
    }

    private static Long dateOf(Event event, Long dateId) {
        if (dateId != null && EventDate.findInEvent(event.id, dateId).isEmpty()) {
            throw new ValidationException("date_id", "is not a date of this event");
        }
        return dateId;
    }

    private CheckinListView view(Event event, CheckinList list) {
        return CheckinListView.of(list, rows.counts(event.id, list));
    }
}

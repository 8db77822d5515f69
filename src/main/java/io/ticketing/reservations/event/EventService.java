package io.ticketing.reservations.event;

import java.time.Duration;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.Taken;
import io.ticketing.reservations.problem.ValidationException;

@ApplicationScoped
public class EventService {

    private record Loaded(Event event, long atNanos) {
    }

    /**
     * Every request names its event by slug, and reading it was one statement in ten of an add to cart. An event
     * changes rarely, and only its terms (name, currency, cart TTL, payment term, limits): it is kept for
     * {@code events.cache-ttl}, and dropped here when this replica changes it. Another replica sees a change
     * within that time. The event's own GET and PATCH read it fresh, for its version.
     */
    private final Map<String, Loaded> bySlug = new ConcurrentHashMap<>();
    private final long cacheNanos;
    private final TransactionSynchronizationRegistry transactions;

    EventService(@ConfigProperty(name = "events.cache-ttl") Duration cacheTtl,
            TransactionSynchronizationRegistry transactions) {
        this.cacheNanos = cacheTtl.toNanos();
        this.transactions = transactions;
    }

    /** The event by slug, as of at most {@code events.cache-ttl} ago, or 404. Shared by requests: never change it. */
    public Event get(String slug) {
        long now = System.nanoTime();
        Loaded loaded = bySlug.get(slug);
        if (loaded != null && now - loaded.atNanos() < cacheNanos) {
            return loaded.event();
        }
        Event event = current(slug);
        bySlug.put(slug, new Loaded(event, now));
        return event;
    }

    /** The event by slug as committed now, or 404. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Event current(String slug) {
        return Event.findBySlug(slug).orElseThrow(() -> new NotFoundException("event", slug));
    }

    /** Events in the order they were created. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<EventView> list(PageRequest page) {
        List<Event> events = Event.<Event>find("id > ?1 order by id", page.afterAscending())
                .range(0, page.fetchSize() - 1).list();
        return Page.of(events.stream().map(EventView::of).toList(), page, EventView::id);
    }

    @Transactional
    public Event create(EventRequests.NewEvent request) {
        requireKnownCurrency(request.currency());
        if (Event.findBySlug(request.slug()).isPresent()) {
            throw Taken.slug(request.slug());
        }
        Event event = new Event();
        event.slug = request.slug();
        event.name = request.name().strip();
        event.currency = request.currency();
        if (request.cartTtlSeconds() != null) {
            event.cartTtlSeconds = request.cartTtlSeconds();
        }
        if (request.paymentTermSeconds() != null) {
            event.paymentTermSeconds = request.paymentTermSeconds();
        }
        event.maxPerBuyer = request.maxPerBuyer();
        event.persistAndFlush();
        return event;
    }

    /** Changing an event's terms makes nothing less available, so it takes no inventory lock. */
    @Transactional
    public Event update(String slug, IfMatch ifMatch, EventRequests.EventChanges changes) {
        Event event = current(slug);
        // After the commit, or a request in between could cache the event as it was.
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                bySlug.remove(slug);
            }
        });
        ifMatch.check(event.version);
        if (changes.currency() != null) {
            requireKnownCurrency(changes.currency());
            event.currency = changes.currency();
        }
        if (changes.name() != null) {
            event.name = changes.name().strip();
        }
        if (changes.cartTtlSeconds() != null) {
            event.cartTtlSeconds = changes.cartTtlSeconds();
        }
        if (changes.paymentTermSeconds() != null) {
            event.paymentTermSeconds = changes.paymentTermSeconds();
        }
        if (changes.maxPerBuyer() != null) {
            event.maxPerBuyer = changes.maxPerBuyer().orElse(null);
        }
        if (changes.waitingRoom() != null) {
            EventRequests.WaitingRoomSettings room = changes.waitingRoom();
            if (room.enabled() && room.admissionPerMinute() == null) {
                throw new ValidationException("waiting_room.admission_per_minute", "is required to enable the room");
            }
            event.waitingRoomEnabled = room.enabled();
            event.admissionPerMinute = room.admissionPerMinute();
            event.opensAt = room.opensAt();
        }
        if (changes.waitingList() != null) {
            EventRequests.WaitingListSettings list = changes.waitingList();
            event.waitingListEnabled = list.enabled();
            event.offerTtlSeconds = list.offerTtlSeconds() == null ? 86_400 : list.offerTtlSeconds();
        }
        // Flushing here turns a concurrent update into a version conflict now rather than at commit.
        event.flush();
        return event;
    }

    private static void requireKnownCurrency(String code) {
        if (Currency.getAvailableCurrencies().stream().noneMatch(currency -> currency.getCurrencyCode().equals(code))) {
            throw new ValidationException("currency", "is not an ISO 4217 currency code");
        }
    }
}

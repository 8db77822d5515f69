package io.ticketing.reservations.event;

import java.time.Duration;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.ticketing.reservations.auth.Access;
import io.ticketing.reservations.auth.Caller;
import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.locking.KnownEvents;
import io.ticketing.reservations.organizer.Organizer;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.Taken;
import io.ticketing.reservations.problem.ValidationException;

@ApplicationScoped
public class EventService implements KnownEvents {

    /** An event as read at {@code atNanos}, or that none had the slug then ({@code event} null). */
    private record Loaded(Event event, long atNanos) {
    }

    /** Slugs of no event kept; past it they are forgotten rather than grow. */
    private static final int MAX_MISSING = 10_000;

    /**
     * Every request names its event by slug, and reading it was one statement in ten of an add to cart. An event
     * changes rarely, and only its terms (name, currency, cart TTL, payment term, limits): it is kept for
     * {@code events.cache-ttl}, and dropped here when this replica changes it. Another replica sees a change
     * within that time. The event's own GET and PATCH read it fresh, for its version. A slug that names no event is
     * kept as such too, apart: so an event of another organizer and one that does not exist answer 404 alike and as
     * fast (contract section 11), and random slugs cost one read each, no memory past {@value #MAX_MISSING}, and
     * never push a real event out (which {@link #knownAndReachable}, and so the event's gate, relies on).
     */
    private final Map<String, Loaded> bySlug = new ConcurrentHashMap<>();
    private final Map<String, Loaded> missing = new ConcurrentHashMap<>();
    private final long cacheNanos;
    private final TransactionSynchronizationRegistry transactions;
    private final Access access;

    EventService(@ConfigProperty(name = "events.cache-ttl") Duration cacheTtl,
            TransactionSynchronizationRegistry transactions, Access access) {
        this.cacheNanos = cacheTtl.toNanos();
        this.transactions = transactions;
        this.access = access;
    }

    /**
     * The event by slug, as of at most {@code events.cache-ttl} ago, or 404, also when the caller's token does not
     * reach it (contract section 11). Shared by requests: never change it.
     */
    public Event get(String slug) {
        long now = System.nanoTime();
        Loaded loaded = bySlug.get(slug);
        if (loaded == null) {
            loaded = missing.get(slug);
        }
        if (loaded == null || now - loaded.atNanos() >= cacheNanos) {
            loaded = new Loaded(find(slug).orElse(null), now);
            if (loaded.event() != null) {
                bySlug.put(slug, loaded);
                missing.remove(slug);
            } else {
                if (missing.size() >= MAX_MISSING) {
                    missing.clear();
                }
                missing.put(slug, loaded);
                bySlug.remove(slug);
            }
        }
        return reachable(slug, Optional.ofNullable(loaded.event()));
    }

    /**
     * Whether an event has this slug, in this replica's cache, and the caller's token reaches it: no database read
     * (see {@link #get}).
     */
    @Override
    public boolean knownAndReachable(String slug) {
        Loaded loaded = bySlug.get(slug);
        return loaded != null && loaded.event() != null
                && access.reaches(loaded.event().organizerId, loaded.event().id);
    }

    /** The event by slug as committed now, or 404 (as in {@link #get}). Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Event current(String slug) {
        return reachable(slug, find(slug));
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    Optional<Event> find(String slug) {
        return Event.findBySlug(slug);
    }

    private Event reachable(String slug, Optional<Event> event) {
        return event.filter(found -> access.reaches(found.organizerId, found.id))
                .orElseThrow(() -> new NotFoundException("event", slug));
    }

    /** The events the caller reaches, in the order they were created. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<EventView> list(PageRequest page) {
        Optional<Caller> caller = access.caller().filter(Caller::isOrganizer);
        var query = caller.isEmpty()
                ? Event.<Event>find("id > ?1 order by id", page.afterAscending())
                : caller.get().eventIds() == null
                        ? Event.<Event>find("organizerId = ?1 and id > ?2 order by id", caller.get().organizerId(),
                                page.afterAscending())
                        : Event.<Event>find("organizerId = ?1 and id > ?2 and id in ?3 order by id",
                                caller.get().organizerId(), page.afterAscending(), caller.get().eventIds());
        List<Event> events = query.range(0, page.fetchSize() - 1).list();
        List<Long> organizerIds = events.stream().map(event -> event.organizerId).distinct().toList();
        Map<Long, String> organizers = organizerIds.isEmpty()
                ? Map.of()
                : Organizer.<Organizer>list("id in ?1", organizerIds).stream()
                        .collect(Collectors.toMap(organizer -> organizer.id, organizer -> organizer.slug));
        return Page.of(events.stream().map(event -> EventView.of(event, organizers.get(event.organizerId))).toList(),
                page, EventView::id);
    }

    /** The slug of the event's organizer, for its view. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public String organizerSlug(Event event) {
        return Organizer.<Organizer>findById(event.organizerId).slug;
    }

    /**
     * A new event, in the caller's organizer; a platform token names one ({@code organizer}, else {@code default}).
     * An organizer's token limited to some events may make none (403).
     */
    @Transactional
    public Event create(EventRequests.NewEvent request) {
        requireKnownCurrency(request.currency());
        Optional<Caller> caller = access.caller().filter(Caller::isOrganizer);
        Organizer organizer;
        if (caller.isPresent()) {
            if (!caller.get().reachesAllOf(caller.get().organizerId())) {
                throw new ApiException(403, "forbidden", "Forbidden",
                        "This token is limited to some events; it may not create others.");
            }
            if (request.organizer() != null) {
                throw new ValidationException("organizer", "is the token's own; leave it out");
            }
            organizer = Organizer.findById(caller.get().organizerId());
        } else {
            String slug = request.organizer() == null ? Organizer.DEFAULT : request.organizer();
            organizer = Organizer.findBySlug(slug).orElseThrow(() -> new NotFoundException("organizer", slug));
        }
        if (Event.findBySlug(request.slug()).isPresent()) {
            throw Taken.slug(request.slug());
        }
        Event event = new Event();
        event.organizerId = organizer.id;
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
        forgetAfterCompletion(request.slug());
        return event;
    }

    /** Changing an event's terms makes nothing less available, so it takes no inventory lock. */
    @Transactional
    public Event update(String slug, IfMatch ifMatch, EventRequests.EventChanges changes) {
        Event event = current(slug);
        forgetAfterCompletion(slug);
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

    /** After the commit, or a request in between could cache the event as it was, or as none. */
    private void forgetAfterCompletion(String slug) {
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                bySlug.remove(slug);
                missing.remove(slug);
            }
        });
    }

    private static void requireKnownCurrency(String code) {
        if (Currency.getAvailableCurrencies().stream().noneMatch(currency -> currency.getCurrencyCode().equals(code))) {
            throw new ValidationException("currency", "is not an ISO 4217 currency code");
        }
    }
}

package io.ticketing.reservations.event;

import java.util.Currency;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;

@ApplicationScoped
public class EventService {

    /** Finds an event by slug, or fails with 404. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Event get(String slug) {
        return Event.findBySlug(slug).orElseThrow(() -> new NotFoundException("event", slug));
    }

    @Transactional
    public Event create(EventRequests.NewEvent request) {
        requireKnownCurrency(request.currency());
        if (Event.findBySlug(request.slug()).isPresent()) {
            throw new ApiException(409, "slug_taken", "Conflict",
                    "An event with slug '" + request.slug() + "' exists.");
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
        event.persistAndFlush();
        return event;
    }

    /** Changing an event's terms makes nothing less available, so it takes no inventory lock. */
    @Transactional
    public Event update(String slug, long expectedVersion, EventRequests.EventChanges changes) {
        Event event = get(slug);
        IfMatch.check(expectedVersion, event.version);
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

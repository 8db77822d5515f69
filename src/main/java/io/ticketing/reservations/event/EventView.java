package io.ticketing.reservations.event;

/** An event as the API shows it. */
public record EventView(long id, String slug, String name, String currency, int cartTtlSeconds,
        int paymentTermSeconds, long version) {

    static EventView of(Event event) {
        return new EventView(event.id, event.slug, event.name, event.currency, event.cartTtlSeconds,
                event.paymentTermSeconds, event.version);
    }
}

package io.ticketing.reservations.event;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An event as the API shows it. */
public record EventView(long id, String slug, String name, String currency, int cartTtlSeconds,
        int paymentTermSeconds, @Schema(nullable = true) Integer maxPerBuyer, long version) {

    static EventView of(Event event) {
        return new EventView(event.id, event.slug, event.name, event.currency, event.cartTtlSeconds,
                event.paymentTermSeconds, event.maxPerBuyer, event.version);
    }
}

package io.ticketing.reservations.event;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An event as the API shows it. */
public record EventView(long id, String slug, String organizer, String name, String currency, int cartTtlSeconds,
        int paymentTermSeconds, @Schema(nullable = true) Integer maxPerBuyer, WaitingRoom waitingRoom,
        WaitingList waitingList, long version) {

    public record WaitingRoom(boolean enabled, @Schema(nullable = true) Integer admissionPerMinute,
            @Schema(nullable = true, implementation = String.class, format = "date-time", example = "2026-12-01T10:00:00Z") Instant opensAt) {
    }

    /** The waiting list of sold-out items (contract section 9). */
    public record WaitingList(boolean enabled, int offerTtlSeconds) {
    }

    static EventView of(Event event, String organizer) {
        return new EventView(event.id, event.slug, organizer, event.name, event.currency, event.cartTtlSeconds,
                event.paymentTermSeconds, event.maxPerBuyer,
                new WaitingRoom(event.waitingRoomEnabled, event.admissionPerMinute, event.opensAt),
                new WaitingList(event.waitingListEnabled, event.offerTtlSeconds), event.version);
    }
}

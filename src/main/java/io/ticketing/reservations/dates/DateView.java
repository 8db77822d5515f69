package io.ticketing.reservations.dates;

import java.time.Instant;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A date as the API shows it, with the items' prices on it where they differ from their own, by item id. */
public record DateView(long id, String name,
        @Schema(implementation = String.class, format = "date-time", example = "2026-12-04T19:00:00Z") Instant startsAt,
        @Schema(nullable = true, implementation = String.class, format = "date-time", example = "2026-12-04T21:30:00Z") Instant endsAt,
        boolean active, Map<Long, String> prices, long version) {

    static DateView of(EventDate date, Map<Long, String> prices) {
        return new DateView(date.id, date.name, date.startsAt, date.endsAt, date.active, prices, date.version);
    }
}

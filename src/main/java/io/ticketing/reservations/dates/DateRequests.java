package io.ticketing.reservations.dates;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Request bodies of the date endpoints. Prices are decimal strings, never floats. */
public final class DateRequests {

    static final String PRICE = "\\d{1,10}(\\.\\d{1,2})?";
    static final String PRICE_MESSAGE = "must be a decimal string such as \"49.90\", not negative";
    /** More per-date prices than a date has items is a mistake. */
    static final int MAX_PRICES = 1000;

    private DateRequests() {
    }

    /** A new date; {@code prices} maps an item's id to its price on this date. */
    public record NewDate(
            @Schema(example = "Friday 20:00") @NotBlank @Size(max = 200) String name,
            @Schema(implementation = String.class, format = "date-time", example = "2026-12-04T19:00:00Z") @NotNull Instant startsAt,
            @Schema(nullable = true, implementation = String.class, format = "date-time", example = "2026-12-04T21:30:00Z") Instant endsAt,
            @Schema(description = "true if absent") Boolean active,
            @Schema(nullable = true, description = "an item's price on this date, by item id, where it differs from the item's own", example = "{\"2\": \"12.50\"}") @Size(max = MAX_PRICES) Map<Long, @NotNull @Pattern(regexp = PRICE, message = PRICE_MESSAGE) String> prices) {
    }

    /**
     * A PATCH: absent fields stay; {@code "ends_at": null} removes the end. {@code prices} changes the items it names:
     * a price sets it, null removes it (the item's own price applies again).
     */
    public record DateChanges(
            @Size(min = 1, max = 200) @Pattern(regexp = ".*\\S.*", message = "must not be blank") String name,
            @Schema(implementation = String.class, format = "date-time") Instant startsAt,
            @Schema(nullable = true, implementation = String.class, format = "date-time", description = "null: no end; absent: unchanged") Optional<Instant> endsAt,
            Boolean active,
            @Schema(nullable = true, description = "by item id: a price sets it on this date, null removes it", example = "{\"2\": \"12.50\"}") @Size(max = MAX_PRICES) Map<Long, @Pattern(regexp = PRICE, message = PRICE_MESSAGE) String> prices) {
    }
}

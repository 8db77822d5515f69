package io.ticketing.reservations.checkin;

import java.util.List;
import java.util.Optional;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Request bodies of the check-in list endpoints. */
public final class CheckinListRequests {

    /** More items on a list than an event has is a mistake. */
    static final int MAX_ITEMS = 1000;

    private CheckinListRequests() {
    }

    /** A new list; absent flags take their defaults (pending orders refused, one entry at a time, re-entry allowed). */
    public record NewList(
            @Schema(example = "Main entrance") @NotBlank @Size(max = 200) String name,
            @Schema(nullable = true, description = "ids of the items valid on it; null or absent: every item") @Size(min = 1, max = MAX_ITEMS) List<@NotNull Long> items,
            @Schema(nullable = true, description = "the date it is for; null or absent: every date") Long dateId,
            @Schema(description = "false if absent") Boolean allowPending,
            @Schema(description = "false if absent") Boolean allowMultipleEntries,
            @Schema(description = "true if absent") Boolean allowEntryAfterExit) {
    }

    /** A PATCH: absent fields stay; {@code "items": null} makes every item valid, {@code "date_id": null} every date. */
    public record ListChanges(
            @Size(min = 1, max = 200) @Pattern(regexp = ".*\\S.*", message = "must not be blank") String name,
            @Schema(nullable = true, description = "null: every item; absent: unchanged") Optional<@Size(min = 1, max = MAX_ITEMS) List<@NotNull Long>> items,
            @Schema(nullable = true, description = "null: every date; absent: unchanged") Optional<Long> dateId,
            Boolean allowPending, Boolean allowMultipleEntries, Boolean allowEntryAfterExit) {
    }
}

package io.ticketing.reservations.allotment;

import java.time.Instant;
import java.util.Optional;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.ticketing.reservations.http.Slugs;
import io.ticketing.reservations.inventory.InventoryRequests;

/** Request bodies of the allotment endpoints (contract section 12). */
public final class AllotmentRequests {

    private AllotmentRequests() {
    }

    public record NewAllotment(
            @Schema(example = "box-office", description = "a channel of the event's organizer, web included: the part of the quota kept for it") @NotNull @Pattern(regexp = Slugs.PATTERN) String channel,
            @Schema(example = "10") @NotNull @PositiveOrZero @Max(InventoryRequests.MAX_QUOTA_SIZE) Integer size,
            @Schema(nullable = true, implementation = String.class, format = "date-time", description = "when what it keeps goes on sale to everyone; null or absent: kept until deleted", example = "2026-12-31T18:00:00Z") Instant releaseAt) {
    }

    /** A PATCH: absent fields stay. Its channel never changes. */
    public record AllotmentChanges(
            @PositiveOrZero @Max(InventoryRequests.MAX_QUOTA_SIZE) Integer size,
            @Schema(nullable = true, implementation = String.class, format = "date-time", description = "null: kept until deleted; absent: unchanged") Optional<Instant> releaseAt) {
    }
}

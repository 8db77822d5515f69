package io.ticketing.reservations.event;

import java.time.Instant;
import java.util.Optional;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.ticketing.reservations.http.Slugs;

/** Request bodies of the event endpoints. */
public final class EventRequests {

    static final String CURRENCY = "[A-Z]{3}";
    /** Ten years: anything longer is a typo, not a business rule. */
    static final long MAX_SECONDS = 315_360_000;
    static final long MAX_PER_BUYER = 10_000_000;
    static final long MAX_ADMISSIONS = 1_000_000;
    static final long MAX_OFFER_SECONDS = 31_536_000;

    private EventRequests() {
    }

    public record NewEvent(
            @Schema(example = "spring-gala") @NotNull @Pattern(regexp = Slugs.PATTERN) String slug,
            @NotBlank @Size(max = 200) String name,
            @Schema(example = "EUR") @NotNull @Pattern(regexp = CURRENCY, message = "must be an ISO 4217 code") String currency,
            @Schema(example = "1800") @Positive @Max(MAX_SECONDS) Integer cartTtlSeconds,
            @Positive @Max(MAX_SECONDS) Integer paymentTermSeconds,
            @Schema(nullable = true, description = "tickets of this event one buyer may hold and buy; null or absent: no limit") @Positive @Max(MAX_PER_BUYER) Integer maxPerBuyer,
            @Schema(nullable = true, description = "the organizer's slug, for a platform token (absent: default); an organizer's token makes events in its own") @Pattern(regexp = Slugs.PATTERN) String organizer) {
    }

    /** A PATCH: absent fields stay as they are. The slug never changes, since URLs name it. */
    public record EventChanges(
            @Size(min = 1, max = 200) @Pattern(regexp = ".*\\S.*", message = "must not be blank") String name,
            @Pattern(regexp = CURRENCY, message = "must be an ISO 4217 code") String currency,
            @Positive @Max(MAX_SECONDS) Integer cartTtlSeconds,
            @Positive @Max(MAX_SECONDS) Integer paymentTermSeconds,
            @Schema(nullable = true, description = "null: no limit; absent: unchanged") Optional<@Positive @Max(MAX_PER_BUYER) Integer> maxPerBuyer,
            @Valid WaitingRoomSettings waitingRoom,
            @Valid WaitingListSettings waitingList) {
    }

    /**
     * The waiting list of sold-out items, replaced at once: on, buyers may join the list of an item that cannot sell
     * what they want, and capacity freed is offered to them first, each offer usable for {@code offer_ttl_seconds}.
     */
    public record WaitingListSettings(
            @NotNull Boolean enabled,
            @Schema(example = "86400", nullable = true, description = "null or absent: 86400, a day") @Positive @Max(MAX_OFFER_SECONDS) Integer offerTtlSeconds) {
    }

    /**
     * The whole waiting room, replaced at once. On, it admits {@code admission_per_minute} queued buyers a minute
     * from {@code opens_at} (now if null), and the event's cart endpoints need an admission token.
     */
    public record WaitingRoomSettings(
            @NotNull Boolean enabled,
            @Schema(example = "600", nullable = true, description = "required when enabled") @Positive @Max(MAX_ADMISSIONS) Integer admissionPerMinute,
            @Schema(nullable = true, implementation = String.class, format = "date-time", example = "2026-12-01T10:00:00Z", description = "null: admit from now") Instant opensAt) {
    }
}

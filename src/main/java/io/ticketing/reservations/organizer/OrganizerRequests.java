package io.ticketing.reservations.organizer;

import java.time.Instant;
import java.util.List;

import jakarta.validation.constraints.Future;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.ticketing.reservations.http.Slugs;

/** Request bodies of the organizer and token endpoints. */
public final class OrganizerRequests {

    private OrganizerRequests() {
    }

    public record NewOrganizer(
            @Schema(example = "city-hall") @NotNull @Pattern(regexp = Slugs.PATTERN) String slug,
            @NotBlank @Size(max = 200) String name) {
    }

    /** A PATCH: absent fields stay. The slug never changes, since tokens and events name it. */
    public record OrganizerChanges(
            @Size(min = 1, max = 200) @Pattern(regexp = ".*\\S.*", message = "must not be blank") String name) {
    }

    /**
     * A new API token: its scope's rights (admin, storefront, or checkin: scanning at the doors) on its organizer's events, or only on {@code events}
     * (their slugs) when given, until {@code expires_at} when given.
     */
    public record NewToken(
            @Schema(example = "box office") @NotBlank @Size(max = 200) String name,
            @Schema(enumeration = {
                    "admin",
                    "storefront",
                    "checkin"}) @NotNull @Pattern(regexp = "admin|storefront|checkin", message = "must be admin, storefront or checkin") String scope,
            @Schema(nullable = true, description = "slugs of the events it may act on; null or absent: every event of the organizer") @Size(min = 1, max = 100) List<@NotNull @Pattern(regexp = Slugs.PATTERN) String> events,
            @Schema(nullable = true, implementation = String.class, format = "date-time", example = "2027-06-30T00:00:00Z") @Future Instant expiresAt,
            @Schema(nullable = true, description = "the slug of the organizer's sales channel its carts sell in; null or absent: web", example = "box-office") @Pattern(regexp = Slugs.PATTERN) String channel){
    }
}

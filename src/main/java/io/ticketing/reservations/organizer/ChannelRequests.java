package io.ticketing.reservations.organizer;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.ticketing.reservations.http.Slugs;

/** Request bodies of the channel endpoints. */
public final class ChannelRequests {

    private ChannelRequests() {
    }

    public record NewChannel(
            @Schema(example = "box-office") @NotNull @Pattern(regexp = Slugs.PATTERN) String slug,
            @Schema(example = "Box office") @NotBlank @Size(max = 200) String name) {
    }

    /** A PATCH: absent fields stay. The slug never changes, since tokens, carts and orders name it. */
    public record ChannelChanges(
            @Size(min = 1, max = 200) @Pattern(regexp = ".*\\S.*", message = "must not be blank") String name) {
    }
}

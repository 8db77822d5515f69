package io.ticketing.reservations.waitingroom;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A buyer's place in an event's waiting room. {@code position} counts the tickets still ahead (0 once admitted);
 * {@code admission_token}, null until admitted, goes in the {@code Admission-Token} header of the cart endpoints.
 */
public record QueueTicketView(
        @Schema(example = "3q2-7wEAAAB7QmGZtT2jVQ") String ticket,
        @Schema(example = "1234") long position,
        @Schema(example = "123") long estimatedWaitSeconds,
        @Schema(nullable = true) String admissionToken) {
}

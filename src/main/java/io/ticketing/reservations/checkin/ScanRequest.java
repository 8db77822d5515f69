package io.ticketing.reservations.checkin;

import java.time.Instant;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A scan at a gate. {@code nonce}: the scanner's own id for this scan, sent again with a retry or an offline queue's
 * replay, which then answers the first result. {@code scanned_at}: when it was scanned, for offline scanners; it is
 * recorded, and the scan is judged when it arrives.
 */
public record ScanRequest(
        @Schema(description = "the ticket's secret, as its QR code carries it") @NotBlank @Size(max = 200) String secret,
        @Schema(enumeration = {
                "entry",
                "exit"}) @NotNull @Pattern(regexp = "entry|exit", message = "must be entry or exit") String type,
        @Schema(example = "gate-3-000042") @NotBlank @Size(max = 100) String nonce,
        @Schema(nullable = true, implementation = String.class, format = "date-time") Instant scannedAt){

    boolean entering() {
        return type.equals("entry");
    }
}

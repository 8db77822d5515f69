package io.ticketing.reservations.cart;

import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A cart as the API shows it; each position has its own deadline, {@code expires} is the latest. */
public record CartView(String id, @Schema(nullable = true) String buyer,
        @Schema(description = "the sales channel it sells in: its token's", example = "web") String channel,
        Instant expires, String total, List<Position> positions) {

    /**
     * {@code date_id}: the date it is for (null: every date, for a pass, or an event without dates); {@code bundled_in}:
     * the bundle position it came with, and leaves with.
     */
    public record Position(long id, long itemId, @Schema(nullable = true) String seatGuid,
            @Schema(nullable = true) String voucherCode,
            String price, Instant expires, @Schema(nullable = true) Long dateId,
            @Schema(nullable = true) Long bundledIn) {
    }
}

package io.ticketing.reservations.order;

import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An order as the API (and its webhooks) show it; {@code expires} is the payment deadline. */
public record OrderView(String code, String status, String email, @Schema(nullable = true) String buyer,
        @Schema(description = "the sales channel it was sold in: its cart's", example = "web") String channel,
        String currency, String total, Instant expires, Instant createdAt, List<Position> positions, long version) {

    /**
     * {@code date_id} and {@code bundled_in} as in a cart's positions; {@code secret} what its ticket carries, shown in
     * the order's answers only (null in webhooks).
     */
    public record Position(long id, long itemId, @Schema(nullable = true) String seatGuid,
            @Schema(nullable = true) String voucherCode,
            String price, @Schema(nullable = true) Long dateId, @Schema(nullable = true) Long bundledIn,
            @Schema(nullable = true, description = "what the ticket's QR code carries (at least 128 random bits); null in webhooks") String secret) {
    }
}

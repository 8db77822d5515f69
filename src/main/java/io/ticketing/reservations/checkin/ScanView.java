package io.ticketing.reservations.checkin;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A scan's answer: its result, the ticket it found (never its secret), and the list it was scanned on. */
public record ScanView(
        @Schema(enumeration = {
                "ok", "already_inside", "unpaid", "canceled", "not_on_list", "unknown"}) String result,
        Position position, ListRef list){

    /**
     * The ticket scanned; null when no ticket of the event has the secret. Not its order's code, which reads the order
     * and so every ticket's secret in it: a scanner's token must not lead there.
     */
    @Schema(name = "ScannedTicket", nullable = true, description = "The ticket scanned, without its secret; null when the secret is unknown.")
    public record Position(long id, long itemId, @Schema(nullable = true) String seatGuid,
            @Schema(nullable = true) Long dateId) {

        static Position of(CheckinRows.Ticket ticket) {
            return new Position(ticket.positionId(), ticket.itemId(), ticket.seatGuid(), ticket.dateId());
        }
    }

    @Schema(name = "ScannedOnList")
    public record ListRef(long id, String name) {
    }
}

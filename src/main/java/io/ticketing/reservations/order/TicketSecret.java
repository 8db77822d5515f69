package io.ticketing.reservations.order;

/**
 * What a ticket's QR code carries (contract section 14): 244 random bits that PostgreSQL's {@code ticket_secret()}
 * makes, never Java. Shown in its order's answers and nowhere else: not in a list, a scan, a webhook or a log, so its
 * {@code toString} does not print it.
 */
public record TicketSecret(String value) {

    @Override
    public String toString() {
        return "TicketSecret[hidden]";
    }
}

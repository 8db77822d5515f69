package io.ticketing.reservations.checkin;

import io.ticketing.reservations.checkin.CheckinRows.ListRules;
import io.ticketing.reservations.checkin.CheckinRows.State;
import io.ticketing.reservations.checkin.CheckinRows.Ticket;

/**
 * How a scan is judged (contract section 14), as pretix's check-in judges: the first rule that applies, in this order.
 * Pure: the ticket and its state are read under the ticket's lock, so the judgement holds until the scan commits.
 */
final class ScanRules {

    static final String OK = "ok";

    private ScanRules() {
    }

    /**
     * {@code ticket} null: no ticket has the secret. An exit is ok for any ticket of the event, inside or not, as in
     * pretix: a gate letting someone out is never refused, even when the order was canceled, or the list changed, while
     * its holder was inside, who would otherwise count as inside for good. Re-entry that the list does not
     * allow is {@code already_inside}: the ticket was used, and section 14's results have no other name for it.
     */
    static String judge(ListRules list, Ticket ticket, State state, boolean entering) {
        if (ticket == null) {
            return "unknown";
        }
        if (!entering) {
            return OK;
        }
        if (!ticket.status().equals("pending") && !ticket.status().equals("paid")) {
            return "canceled";
        }
        if (list.items() != null && !list.items().contains(ticket.itemId())
                || list.dateId() != null && ticket.dateId() != null && !list.dateId().equals(ticket.dateId())) {
            return "not_on_list";
        }
        if (ticket.status().equals("pending") && !list.allowPending()) {
            return "unpaid";
        }
        if (list.allowMultipleEntries()) {
            return OK;
        }
        if (state.inside() || state.entries() > 0 && !list.allowEntryAfterExit()) {
            return "already_inside";
        }
        return OK;
    }
}

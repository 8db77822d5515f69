package io.ticketing.reservations.waitinglist;

import jakarta.enterprise.context.ApplicationScoped;

/** Entries as the API shows them: a waiting entry with its position, an offered one with its offer. */
@ApplicationScoped
class WaitingListViews {

    private final WaitingListRows rows;

    WaitingListViews(WaitingListRows rows) {
        this.rows = rows;
    }

    WaitingListView of(WaitingListRows.Entry entry) {
        boolean waiting = entry.status() == WaitingListRows.Status.WAITING;
        return new WaitingListView(entry.id(), entry.itemId(), entry.quantity(), entry.email(), entry.buyer(),
                entry.priority(), entry.status().value(), waiting ? rows.position(entry) : null,
                entry.voucherCode() == null
                        ? null
                        : new WaitingListView.Offer(entry.voucherCode(), entry.offeredUntil()),
                entry.createdAt(), entry.version());
    }
}

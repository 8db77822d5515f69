package io.ticketing.reservations.checkin;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.reservation.ReservationCheckpoints;

/**
 * Scans at the doors (contract section 14), in a transaction of their own with no advisory lock: a scan locks only
 * the ticket's row ({@link CheckinRows}), so gates never queue behind a sale, nor behind each other's tickets.
 */
@ApplicationScoped
public class CheckinService {

    private final CheckinRows rows;
    private final ReservationCheckpoints checkpoints;

    CheckinService(CheckinRows rows, ReservationCheckpoints checkpoints) {
        this.rows = rows;
        this.checkpoints = checkpoints;
    }

    /**
     * Judges and records one scan, or answers the first scan with its nonce on the list (409 {@code nonce_reused} if
     * that one was of another ticket or type: a scanner whose counter started again must not be told another's
     * result, nor step through the nonces to learn which tickets came in). Only an {@code ok} changes where the ticket
     * stands. The checkpoints let a race test hold a scan where a race is decided (after its judgement and write,
     * before its commit), as it does a sale.
     */
    @Transactional
    public ScanView scan(Event event, long listId, ScanRequest request) {
        checkpoints.beforeLocks(event.id, 1);
        Optional<CheckinRows.Judged> judged = rows.scan(event.id, listId, request);
        if (judged.isEmpty()) {
            CheckinRows.FirstScan first = rows.firstScan(event.id, listId, request)
                    .orElseThrow(() -> new NotFoundException("check-in list", listId));
            if (!first.same()) {
                throw new ApiException(409, "nonce_reused", "Conflict", "This nonce was sent before on this list with"
                        + " another ticket or type; send each scan with a nonce of its own.");
            }
            return view(listId, first.answer());
        }
        checkpoints.afterChecks(event.id, 1);
        return view(listId, judged.get());
    }

    private static ScanView view(long listId, CheckinRows.Judged judged) {
        return new ScanView(judged.result(), judged.ticket().map(ScanView.Position::of).orElse(null),
                new ScanView.ListRef(listId, judged.listName()));
    }
}

package io.ticketing.reservations.checkin;

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
        CheckinRows.Read read = rows.read(event.id, listId, request.nonce(), request.type(), request.scannedAt(),
                request.secret());
        CheckinRows.ListRules list = read.list().orElseThrow(() -> new NotFoundException("check-in list", listId));
        ScanView.ListRef ref = new ScanView.ListRef(listId, list.name());
        if (read.scanId() == null) {
            CheckinRows.FirstScan first = read.first()
                    .orElseThrow(() -> new NotFoundException("check-in list", listId));
            if (!first.same()) {
                throw new ApiException(409, "nonce_reused", "Conflict", "This nonce was sent before on this list with"
                        + " another ticket or type; send each scan with a nonce of its own.");
            }
            return new ScanView(first.result(), first.ticket().map(ScanView.Position::of).orElse(null), ref);
        }
        if (read.ticket().isEmpty()) {
            read = rows.readAgain(listId, read, event.id, request.secret()).orElse(read);
        }
        CheckinRows.Ticket ticket = read.ticket().orElse(null);
        String result = ScanRules.judge(list, ticket, read.state(), request.entering());
        rows.write(listId, read.scanId(), result, ticket, request.entering());
        checkpoints.afterChecks(event.id, 1);
        return new ScanView(result, ScanView.Position.of(ticket), ref);
    }
}

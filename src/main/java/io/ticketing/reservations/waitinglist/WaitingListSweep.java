package io.ticketing.reservations.waitinglist;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.reservation.Deadlines;
import io.ticketing.reservations.tasks.Sweep;

/**
 * Every sweep interval, on every replica: a run of {@link Offers} for each event whose list is open, queued once
 * however many replicas sweep. It catches what frees capacity without telling anyone (holds that expire, an event
 * whose list was turned off while entries waited) and offers that ran out.
 */
@ApplicationScoped
class WaitingListSweep implements Sweep {

    private static final String OPEN_LISTS = """
            SELECT DISTINCT event_id FROM waiting_list_entries WHERE status IN ('waiting', 'offered')""";

    private final Jdbc jdbc;
    private final Offers offers;
    private final Deadlines deadlines;

    WaitingListSweep(Jdbc jdbc, Offers offers, Deadlines deadlines) {
        this.jdbc = jdbc;
        this.offers = offers;
        this.deadlines = deadlines;
    }

    @Override
    public int sweep() {
        List<Long> events = jdbc.statement(OPEN_LISTS).list(row -> row.getLong(1));
        if (!events.isEmpty()) {
            QuarkusTransaction.requiringNew().run(() -> events.forEach(event -> offers.soon(event, deadlines.now())));
        }
        return events.size();
    }
}

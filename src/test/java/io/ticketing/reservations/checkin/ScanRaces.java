package io.ticketing.reservations.checkin;

import static io.ticketing.reservations.checkin.Gates.newList;
import static io.ticketing.reservations.checkin.Gates.paidTickets;
import static io.ticketing.reservations.checkin.Gates.scan;
import static io.ticketing.reservations.support.Api.ADMIN;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.ticketing.reservations.reservation.RacePauses;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * Gates racing for one ticket: real HTTP clients released together, each scan held after its write until every other
 * has written too or waits for a lock ({@link RacePauses}, as for sales). {@link ScanRacesTest} runs them with the
 * ticket's row lock, where one gate lets it in; {@link ScanRacesWithoutLocksTest} without, where every gate does.
 */
abstract class ScanRaces {

    static final int GATES = 8;

    @Inject
    Sql sql;

    @Inject
    RacePauses pauses;

    abstract boolean locking();

    @Test
    void eightGatesScanningOneTicketAtOnceLetItInOnce() throws Exception {
        String event = newEvent("gates-race");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        String secret = paidTickets(event, item, 1).get(0);
        long list = newList(event, Map.of("name", "Doors"));
        List<Crowd.Outcome> gates;
        try (RacePauses.Race race = pauses.race(sql.number("SELECT id FROM events WHERE slug = ?1", event), GATES)) {
            gates = Crowd.run(GATES, gate -> scan(ADMIN, event, list, secret, "entry", "gate-" + gate));
        }
        long ok = gates.stream().filter(gate -> gate.status() == 201 && gate.body().contains("\"result\":\"ok\""))
                .count();
        if (locking()) {
            assertThat(ok).isEqualTo(1);
            assertThat(gates).filteredOn(gate -> gate.body().contains("already_inside")).hasSize(GATES - 1);
            Oracle.assertNeverOversold(sql, event);
        } else {
            assertThat(ok).as("without the row lock every gate lets the ticket in").isEqualTo(GATES);
            assertThat(Oracle.brokenPromises(sql, event, java.util.Set.of())).isNotEmpty();
        }
    }
}

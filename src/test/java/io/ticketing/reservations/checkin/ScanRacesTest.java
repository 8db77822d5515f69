package io.ticketing.reservations.checkin;

import static io.ticketing.reservations.checkin.Gates.inside;
import static io.ticketing.reservations.checkin.Gates.newList;
import static io.ticketing.reservations.checkin.Gates.paidTickets;
import static io.ticketing.reservations.checkin.Gates.scan;
import static io.ticketing.reservations.checkin.Gates.scanPlainly;
import static io.ticketing.reservations.support.Api.ADMIN;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Oracle;

/**
 * {@link ScanRaces} with the ticket's row lock, and two crowds the lock-off twin does not run: a nonce sent ten times
 * at once (kept once by the scans' unique index, which no setting takes away), and many gates at many tickets.
 */
@QuarkusTest
class ScanRacesTest extends ScanRaces {

    @Override
    boolean locking() {
        return true;
    }

    @Test
    void oneNonceSentTenTimesAtOnceCountsOnceAndAnswersEachTheSame() {
        String event = newEvent("gates-nonce");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        String secret = paidTickets(event, item, 1).get(0);
        long list = newList(event, Map.of("name", "Doors"));
        List<Crowd.Outcome> retries = Crowd.run(10, retry -> scan(ADMIN, event, list, secret, "entry", "offline-1"));
        assertThat(retries).allSatisfy(retry -> {
            assertThat(retry.status()).isEqualTo(201);
            assertThat(retry.body()).contains("\"result\":\"ok\"");
        });
        assertThat(sql.number("SELECT count(*) FROM checkin_scans WHERE list_id = ?1", list)).isEqualTo(1);
        assertThat(sql.number("SELECT entries FROM checkin_states WHERE list_id = ?1", list)).isEqualTo(1);
        assertThat(inside(event, list)).isEqualTo(1);
    }

    /**
     * Sixteen gates, each through all 200 tickets in an order of its own: an entry of each, then an exit of every
     * other one. Every ticket enters once however many gates scan it at the same moment, and what the list counts
     * inside is what the scans say.
     */
    @Test
    void twoHundredTicketsThroughSixteenGatesLeaveInsideAsTheScansSay() {
        String event = newEvent("gates-crowd");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 200, List.of(item));
        List<String> tickets = new ArrayList<>();
        for (int order = 0; order < 10; order++) {
            tickets.addAll(paidTickets(event, item, 20));
        }
        long list = newList(event, Map.of("name", "Doors", "allow_entry_after_exit", false));
        List<Crowd.Outcome> gates = Crowd.runForOutcomes(16, gate -> {
            List<Integer> order = new ArrayList<>(IntStream.range(0, tickets.size()).boxed().toList());
            Collections.shuffle(order, new Random(gate));
            Crowd.Outcome last = null;
            for (int ticket : order) {
                last = scanPlainly(event, list, tickets.get(ticket), "entry", "g" + gate + "-in-" + ticket);
                if (last.status() != 201) {
                    return last;
                }
                if (ticket % 2 == 0 && gate % 4 == 0) {
                    last = scanPlainly(event, list, tickets.get(ticket), "exit", "g" + gate + "-out-" + ticket);
                    if (last.status() != 201) {
                        return last;
                    }
                }
            }
            return last;
        });
        assertThat(gates).allSatisfy(gate -> assertThat(gate.status()).as(gate.body()).isEqualTo(201));
        assertThat(
                sql.number("SELECT count(*) FROM checkin_scans WHERE list_id = ?1 AND result = 'ok' AND type = 'entry'",
                        list))
                .as("each ticket entered once: re-entry is off").isEqualTo(200);
        long insideByScans = sql.number("""
                SELECT count(*) FROM (SELECT position_id, (array_agg(type ORDER BY seq DESC))[1] AS last
                  FROM checkin_scans WHERE list_id = ?1 AND result = 'ok' GROUP BY position_id) t
                WHERE last = 'entry'""", list);
        assertThat(inside(event, list)).isEqualTo(insideByScans).isEqualTo(100);
        Oracle.assertNeverOversold(sql, event);
    }
}

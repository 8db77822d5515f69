package io.ticketing.reservations.problem;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Sql;

/**
 * Creates that check a unique name and then insert race: two requests both see the name free. The loser's insert
 * breaks the unique constraint, and must hear the same 409 the check gives, not a 500.
 */
@QuarkusTest
class UniqueRaceTest {

    private static final int CLIENTS = 20;

    @Inject
    Sql sql;

    @Test
    void racingCreatesOfOneEventSlugGiveOne201AndOnlySlugTaken() {
        // Several rounds: an event is a small insert, and a single round may not overlap the check and the insert.
        for (int round = 0; round < 5; round++) {
            String slug = "race-" + Long.toString(System.nanoTime(), 36);
            List<Crowd.Outcome> outcomes = Crowd.runRetrying(CLIENTS, client -> admin()
                    .body(Map.of("slug", slug, "name", "Race " + client, "currency", "EUR")).post("/api/v1/events"));
            assertOneCreatedAndTheRest(outcomes, "slug_taken");
            assertThat(sql.number("SELECT count(*) FROM events WHERE slug = ?1", slug)).isOne();
        }
    }

    @Test
    void racingCreatesOfOneVoucherCodeInAnyCaseGiveOne201AndOnlyVoucherCodeTaken() {
        String event = newEvent("voucher-race");
        List<Crowd.Outcome> outcomes = Crowd.runRetrying(CLIENTS, client -> admin()
                .body(Map.of("code", client % 2 == 0 ? "RACE" : "race")).post("/api/v1/events/{event}/vouchers",
                        event));
        assertOneCreatedAndTheRest(outcomes, "voucher_code_taken");
        assertThat(sql.number("SELECT count(*) FROM vouchers v JOIN events e ON e.id = v.event_id"
                + " WHERE e.slug = ?1", event)).isOne();
    }

    @Test
    void racingCreatesOfOneSeatGiveOne201AndOnlySeatExistsWithNothingElseOfTheLosersWritten() {
        String event = newEvent("seat-race");
        long item = newSeatedItem(event, "Seat", "10.00");
        List<Crowd.Outcome> outcomes = Crowd.runRetrying(CLIENTS, client -> admin()
                .body(Map.of("seats", List.of(Map.of("guid", "A-1", "name", "A1", "item_id", item),
                        Map.of("guid", "own-" + client, "name", "Own", "item_id", item))))
                .post("/api/v1/events/{event}/seats", event));
        assertOneCreatedAndTheRest(outcomes, "seat_exists");
        assertThat(sql.number("SELECT count(*) FROM seats WHERE item_id = ?1", item)).isEqualTo(2);
    }

    private static void assertOneCreatedAndTheRest(List<Crowd.Outcome> outcomes, String code) {
        assertThat(Crowd.count(outcomes, 201)).as("%s", outcomes).isOne();
        assertThat(outcomes).filteredOn(outcome -> outcome.status() != 201).as("%s", outcomes)
                .allSatisfy(outcome -> {
                    assertThat(outcome.status()).isEqualTo(409);
                    assertThat(outcome.code()).isEqualTo(code);
                });
    }
}

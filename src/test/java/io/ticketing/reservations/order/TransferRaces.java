package io.ticketing.reservations.order;

import static io.ticketing.reservations.order.TransferTest.paidOrder;
import static io.ticketing.reservations.order.TransferTest.paidOrderOf;
import static io.ticketing.reservations.order.TransferTest.transfer;
import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newCartOf;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.order;
import static io.ticketing.reservations.support.Crowd.count;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.ticketing.reservations.reservation.RacePauses;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * A transfer racing what it must not cross, real HTTP clients released together and held after their checks until
 * the other has checked or waits for a lock ({@link RacePauses}): the receiver buying its last allowed ticket, and a
 * gate scanning the ticket that changes hands. {@link TransferRacesTest} runs them with the locks, where one of the
 * two wins; {@link TransferRacesWithoutLocksTest} without, where both do.
 */
abstract class TransferRaces {

    @Inject
    Sql sql;

    @Inject
    RacePauses pauses;

    abstract boolean locking();

    private List<Outcome> race(String event, IntFunction<Response> racer) {
        try (RacePauses.Race race = pauses.race(sql.number("SELECT id FROM events WHERE slug = ?1", event), 2)) {
            return Crowd.runRetrying(2, racer);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The receiver's buyer lock and count are what keep a transfer and its own purchase within its limit. */
    @Test
    void aTransferAndTheReceiversOwnPurchaseRacingForItsLastAllowedTicketGiveItOne() {
        String event = newEvent("race-transfer-limit");
        long item = newItem(event, Map.of("name", "Ticket", "price", "10", "max_per_buyer", 1));
        newQuota(event, 10, List.of(item));
        String ann = newCartOf(event, "ann");
        addToCart(event, ann, Map.of("item_id", item)).then().statusCode(201);
        String sold = paidOrder(event, ann);
        long position = order(event, sold).getLong("positions[0].id");
        String bob = newCartOf(event, "bob");
        List<Outcome> outcomes = race(event, racer -> racer == 0
                ? transfer(event, sold, position, Map.of("email", "bob@example.com", "buyer", "bob"))
                : addToCart(event, bob, Map.of("item_id", item)));
        if (locking()) {
            assertThat(count(outcomes, 200) + count(outcomes, 201)).as("bob's one ticket").isEqualTo(1);
            assertThat(count(outcomes, "buyer_limit")).isEqualTo(1);
            Oracle.assertNeverOversold(sql, event);
        } else {
            assertThat(outcomes).as("without the buyer's lock both win").allMatch(o -> o.status() / 100 == 2);
            assertThat(Oracle.brokenPromises(sql, event, java.util.Set.of())).contains("buyer bob of item " + item
                    + " past the limit");
        }
    }

    /**
     * The ticket's row lock, which a scan and a transfer both take, puts them one after the other: the scan lets the
     * holder in and the transfer is refused, or the ticket changes hands and its old secret is unknown.
     */
    @Test
    void aTransferAndAScanOfTheSameTicketNeverBothGoThrough() {
        String event = newEvent("race-transfer-scan");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        String code = paidOrderOf(event, Map.of("item_id", item));
        JsonPath sold = order(event, code);
        long list = admin().body(Map.of("name", "Doors")).post("/api/v1/events/{event}/checkin_lists", event).then()
                .statusCode(201).extract().jsonPath().getLong("id");
        List<Outcome> outcomes = race(event, racer -> racer == 0
                ? transfer(event, code, sold.getLong("positions[0].id"), Map.of("email", "grace@example.com"))
                : admin().body(Map.of("secret", sold.getString("positions[0].secret"), "type", "entry", "nonce",
                        "gate-1")).post("/api/v1/events/{event}/checkin_lists/{list}/scans", event, list));
        Outcome moved = outcomes.get(0);
        boolean scannedIn = outcomes.get(1).body().contains("\"result\":\"ok\"");
        if (locking()) {
            assertThat(moved.status() == 200).as("a transfer or an entry, never both: " + outcomes)
                    .isNotEqualTo(scannedIn);
            if (!scannedIn) {
                assertThat(outcomes.get(1).body()).contains("\"result\":\"unknown\"");
                assertThat(moved.body()).doesNotContain(sold.getString("positions[0].secret"));
            } else {
                assertThat(moved.body()).contains("position_inside");
            }
            Oracle.assertNeverOversold(sql, event);
        } else {
            assertThat(moved.status()).as("without the scan's row lock, the transfer").isEqualTo(200);
            assertThat(scannedIn).as("and the old secret's entry, both went through").isTrue();
        }
    }
}

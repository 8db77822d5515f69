package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newCarts;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Crowd.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Oracle;

/**
 * {@link SeatingPlanRaces} with the locks; a plan replaced while buyers race for the seats it drops; a buyer held
 * between its reads and its locks while the plan moves or drops its seat; a date made while the plan is replaced.
 */
@QuarkusTest
class SeatingPlanContentionTest extends SeatingPlanRaces {

    @Override
    boolean locking() {
        return true;
    }

    @Test
    void aPlanReplacedWhileBuyersClickASeatItDropsEitherKeepsTheirHoldOrTheyGetNone() {
        for (int round = 0; round < 3; round++) {
            long[] item = new long[1];
            String event = hallFor("plan-replace-race", item);
            List<String> carts = newCarts(event, 8);
            // Nine seats a row: the tenth of each row leaves the plan.
            List<Outcome> outcomes = Crowd.runRetrying(9, i -> i == 8
                    ? admin().body(hall(9).mappedTo(Map.of("Stalls", item[0]))).put(PLAN, event)
                    : addToCart(event, carts.get(i), Map.of("item_id", item[0], "seat_guid", "Stalls-1-10")));
            long held = count(outcomes.subList(0, 8), 201);
            assertThat(held).as("one seat, held at most once").isLessThanOrEqualTo(1);
            if (outcomes.get(8).status() == 200) {
                assertThat(held).as("the plan dropped the seat: no one holds it").isZero();
            } else {
                assertThat(outcomes.get(8).code()).isEqualTo("seat_in_use");
                assertThat(held).as("the plan was refused for the hold").isEqualTo(1);
            }
            assertThat(sql.number("SELECT count(*) FROM cart_positions c JOIN seats s ON s.id = c.seat_id"
                    + " WHERE s.guid = 'Stalls-1-10' AND c.item_id <> s.item_id")).isZero();
            Oracle.assertNeverOversold(sql, event);
        }
    }

    @Test
    void aSeatThePlanMovesToAnotherItemWhileABuyerWaitsBeforeTheLocksIsNotHeldAsTheOldItem() throws Exception {
        long[] stalls = new long[1];
        String event = hallFor("plan-move-race", stalls);
        long premium = newSeatedItem(event, "Premium", "60");
        newQuota(event, 100, List.of(premium));
        String cart = newCart(event);
        // The buyer read the seat as a Stalls seat; now the plan sells it as Premium.
        Response answer = pauses.heldBeforeLocksWhile(eventId(event),
                () -> addToCart(event, cart, Map.of("item_id", stalls[0], "seat_guid", "Stalls-1-5")),
                () -> admin().body(hall(10).mappedTo(Map.of("Stalls", premium))).put(PLAN, event).then()
                        .statusCode(200));
        assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(409);
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1", cart)).as("nothing held")
                .isZero();
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void aSeatThePlanDropsWhileABuyerWaitsBeforeTheLocksIsGoneNotAnError() throws Exception {
        long[] stalls = new long[1];
        String event = hallFor("plan-drop-race", stalls);
        String cart = newCart(event);
        pauses.heldBeforeLocksWhile(eventId(event),
                () -> addToCart(event, cart, Map.of("item_id", stalls[0], "seat_guid", "Stalls-1-10")),
                () -> admin().body(hall(9).mappedTo(Map.of("Stalls", stalls[0]))).put(PLAN, event).then()
                        .statusCode(200))
                .then().statusCode(404).body("code", equalTo("not_found"));
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void aDateMadeWhileThePlanIsReplacedGetsTheNewPlansSeats() throws Exception {
        String event = newEvent("plan-date-race");
        newDate(event, 1);
        long stalls = newSeatedItem(event, "Stalls", "40");
        newQuota(event, 1000, List.of(stalls));
        admin().body(hall(10).mappedTo(Map.of("Stalls", stalls))).put(PLAN, event).then().statusCode(200);
        // The new date is written, not committed, and has no seats yet: the replacement cannot see it.
        pauses.heldBeforeLocksWhile(eventId(event),
                () -> admin().body(Map.of("name", "December 2", "starts_at", "2026-12-02T19:00:00Z"))
                        .post("/api/v1/events/{event}/dates", event),
                () -> admin().body(hall(9).mappedTo(Map.of("Stalls", stalls))).put(PLAN, event).then()
                        .statusCode(200))
                .then().statusCode(201);
        assertThat(sql.number("SELECT count(*) FROM seats WHERE event_id = ?1 AND guid LIKE '%-10'", eventId(event)))
                .as("no date has a seat the new plan dropped").isZero();
        assertThat(sql.number("SELECT count(*) FROM seats WHERE event_id = ?1", eventId(event)))
                .as("each of the two dates has the new plan's 18 seats").isEqualTo(36);
    }

    private long eventId(String event) {
        return sql.number("SELECT id FROM events WHERE slug = ?1", event);
    }
}

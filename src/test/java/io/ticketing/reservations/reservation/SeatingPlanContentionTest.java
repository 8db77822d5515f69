package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newCarts;
import static io.ticketing.reservations.support.Crowd.count;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Oracle;

/** {@link SeatingPlanRaces} with the locks, and a plan replaced while buyers race for the seats it drops. */
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
}

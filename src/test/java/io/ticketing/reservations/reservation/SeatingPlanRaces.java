package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newCarts;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Crowd.count;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;
import io.ticketing.reservations.support.Venue;

/**
 * Buyers clicking the same seat of a seating plan (contract section 13), held as {@link RacePauses} holds them:
 * {@link SeatingPlanContentionTest} with the locks, where one buyer gets the seat; {@link
 * SeatingPlanContentionWithoutLocksTest} without, where every click wins and the seat is sold twice.
 */
abstract class SeatingPlanRaces {

    static final String PLAN = "/api/v1/events/{event}/seating_plan";

    @Inject
    Sql sql;

    @Inject
    RacePauses pauses;

    abstract boolean locking();

    /** A hall of two rows of ten in one category, sold as {@code item}; answers the event's slug. */
    static String hallFor(String prefix, long[] item) {
        String event = newEvent(prefix);
        item[0] = newSeatedItem(event, "Stalls", "40");
        newQuota(event, 100, List.of(item[0]));
        admin().body(hall(10).mappedTo(Map.of("Stalls", item[0]))).put(PLAN, event).then().statusCode(200);
        return event;
    }

    static Venue hall(int perRow) {
        return Venue.named("Studio").category("Stalls", "#7f4a91")
                .zone("Stalls", "Stalls", List.of("1", "2"), perRow, 0, 0);
    }

    @Test
    void tenBuyersClickingTheSameSeatOfThePlanLeaveItSoldOnce() {
        long[] item = new long[1];
        String event = hallFor("plan-click", item);
        List<String> carts = newCarts(event, 10);
        List<Outcome> outcomes = race(event, 10,
                i -> addToCart(event, carts.get(i), Map.of("item_id", item[0], "seat_guid", "Stalls-1-5")));
        if (locking()) {
            assertThat(count(outcomes, 201)).as("one buyer holds the seat").isEqualTo(1);
            assertThat(count(outcomes, "seat_unavailable")).isEqualTo(9);
            Oracle.assertNeverOversold(sql, event);
        } else {
            assertThat(count(outcomes, 201)).as("without locks every click wins").isEqualTo(10);
            Oracle.assertOversold(sql, event);
        }
    }

    /**
     * Contract section 10, "Becoming a series": buyers of a hall sold without dates and the admin adding its first
     * date race. With the locks the date waits for the buyers' holds and is refused, or the buyers wait for the date
     * and are refused (each must name a date now), never both; without them every racer wins, and the series holds
     * positions of no date, each a seat on every date.
     */
    @Test
    void theFirstDateAndBuyersOfNoDateRacingNeverBothWin() {
        long[] item = new long[1];
        String event = hallFor("plan-series", item);
        List<String> carts = newCarts(event, 8);
        List<Outcome> outcomes = race(event, 9, i -> i == 8
                ? admin().body(Map.of("name", "Second night", "starts_at", "2026-12-20T19:00:00Z"))
                        .post("/api/v1/events/{event}/dates", event)
                : addToCart(event, carts.get(i), Map.of("item_id", item[0], "seat_guid", "Stalls-1-" + (i + 1))));
        boolean dated = outcomes.get(8).status() == 201;
        long held = outcomes.subList(0, 8).stream().filter(outcome -> outcome.status() == 201).count();
        if (locking()) {
            assertThat(dated ? held : 8 - held).as(dated ? "holds beside the new date" : "buyers refused, yet no date")
                    .isZero();
            assertThat(dated ? count(outcomes, "date_required") : count(outcomes, "event_has_sales"))
                    .isEqualTo(dated ? 8 : 1);
            Oracle.assertNeverOversold(sql, event);
        } else {
            assertThat(count(outcomes, 201)).as("without locks the date and every buyer win").isEqualTo(9);
            Oracle.assertOversold(sql, event);
        }
    }

    List<Outcome> race(String event, int racers, IntFunction<Response> racer) {
        try (RacePauses.Race race = pauses.race(sql.number("SELECT id FROM events WHERE slug = ?1", event), racers)) {
            return Crowd.runRetrying(racers, racer);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}

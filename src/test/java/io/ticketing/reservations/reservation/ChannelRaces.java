package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.channelToken;
import static io.ticketing.reservations.support.Api.newAllotment;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newCartWith;
import static io.ticketing.reservations.support.Api.newCarts;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefrontOf;
import static io.ticketing.reservations.support.Crowd.count;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * Buyers of two channels racing for a quota with an allotment (contract section 12), held as {@link RacePauses}
 * holds them: {@link ChannelContentionTest} with the locks, where each channel gets exactly what is its to sell;
 * {@link ChannelContentionWithoutLocksTest} without, where every racer wins and the allotment is sold past.
 */
abstract class ChannelRaces {

    private static final String EVENT = "/api/v1/events/{event}";

    @Inject
    Sql sql;

    @Inject
    RacePauses pauses;

    abstract boolean locking();

    @Test
    void fortyWebAndTenBoxOfficeBuyersForTwentyWithTenKeptGetExactlyTenEach() {
        String boxOffice = channelToken("box-office");
        String event = newEvent("race-allotment");
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 20, List.of(ticket));
        newAllotment(event, quota, "box-office", 10);
        List<String> web = newCarts(event, 40);
        List<String> desk = IntStream.range(0, 10).mapToObj(i -> newCartWith(boxOffice, event)).toList();
        List<Outcome> outcomes = race(event, 50, i -> i < 40
                ? addToCart(event, web.get(i), Map.of("item_id", ticket))
                : storefrontOf(boxOffice).body(Map.of("positions", List.of(Map.of("item_id", ticket))))
                        .post(EVENT + "/carts/{cart}/positions", event, desk.get(i - 40)));
        expect(event, outcomes, () -> {
            assertThat(count(outcomes.subList(0, 40), 201)).as("web").isEqualTo(10);
            assertThat(count(outcomes.subList(40, 50), 201)).as("box office").isEqualTo(10);
            assertThat(count(outcomes, "quota_exhausted")).isEqualTo(30);
        });
    }

    @Test
    void anAllotmentMadeWhileBuyersRaceForTheLastPlacesNeverSellsWhatItKeeps() {
        for (int round = 0; round < (locking() ? 3 : 1); round++) {
            channelToken("box-office");
            String event = newEvent("race-allotment-made");
            long ticket = newItem(event, "Ticket", "10");
            long quota = newQuota(event, 10, List.of(ticket));
            addToCart(event, newCart(event), Map.of("item_id", ticket, "quantity", 6)).then().statusCode(201);
            List<String> carts = newCarts(event, 8);
            List<Outcome> outcomes = race(event, 9, i -> i == 8
                    ? admin().body(Map.of("channel", "box-office", "size", 3))
                            .post(EVENT + "/quotas/{quota}/allotments", event, quota)
                    : addToCart(event, carts.get(i), Map.of("item_id", ticket)));
            expect(event, outcomes, () -> {
                boolean made = outcomes.get(8).status() == 201;
                assertThat(count(outcomes.subList(0, 8), 201) + (made ? 3 : 0)).as("held and kept")
                        .isLessThanOrEqualTo(4);
                if (!made) {
                    assertThat(outcomes.get(8).code()).isEqualTo("quota_exhausted");
                }
            });
        }
    }

    @Test
    void buyersOfTwoChannelsRacingAcrossReleaseAtSellOnlyWhatIsLeft() {
        String boxOffice = channelToken("box-office");
        String event = newEvent("race-release");
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(ticket));
        long allotment = newAllotment(event, quota, "box-office", 5);
        addToCart(event, newCart(event), Map.of("item_id", ticket, "quantity", 5)).then().statusCode(201);
        sql.update("UPDATE allotments SET release_at = now() + interval '300 milliseconds' WHERE id = ?1", allotment);
        List<String> web = newCarts(event, 6);
        List<String> desk = IntStream.range(0, 6).mapToObj(i -> newCartWith(boxOffice, event)).toList();
        List<Outcome> outcomes = race(event, 12, i -> i % 2 == 0
                ? addToCart(event, web.get(i / 2), Map.of("item_id", ticket))
                : storefrontOf(boxOffice).body(Map.of("positions", List.of(Map.of("item_id", ticket))))
                        .post(EVENT + "/carts/{cart}/positions", event, desk.get(i / 2)));
        if (locking()) {
            assertThat(count(outcomes, 201)).as("the five left, kept or released").isEqualTo(5);
            assertThat(count(outcomes, "quota_exhausted")).isEqualTo(7);
            Oracle.assertNeverOversold(sql, event);
        } else {
            // Web buyers who counted before the release saw nothing left; the box office's six always saw five.
            assertThat(count(outcomes, 201)).as("without locks").isGreaterThan(5);
            Oracle.assertOversold(sql, event);
        }
    }

    private List<Outcome> race(String event, int racers, IntFunction<Response> racer) {
        try (RacePauses.Race race = pauses.race(sql.number("SELECT id FROM events WHERE slug = ?1", event), racers)) {
            return Crowd.runRetrying(racers, racer);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** With the locks: {@code promised} holds and nothing is oversold. Without: every racer won, and it oversold. */
    private void expect(String event, List<Outcome> outcomes, Runnable promised) {
        if (locking()) {
            promised.run();
            Oracle.assertNeverOversold(sql, event);
        } else {
            assertThat(outcomes).as("without locks every racer wins").allMatch(outcome -> outcome.status() / 100 == 2);
            Oracle.assertOversold(sql, event);
        }
    }
}

package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCarts;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static io.ticketing.reservations.support.Crowd.count;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ticketing.reservations.order.OrderService;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Sql;

/**
 * Buyers racing for the same inventory: real HTTP clients on their own threads, released together, and held
 * after their availability check until every racer has checked or waits for a lock ({@link RacePauses}), so each
 * race is decided the same way on every run. {@link ContentionTest} runs them with the locks, where exactly the
 * promised number win; {@link ContentionWithoutLocksTest} without, where every racer wins and the event is
 * oversold.
 */
abstract class Races {

    static final int CLIENTS = 32;

    @Inject
    Sql sql;

    @Inject
    OrderService orders;

    @Inject
    RacePauses pauses;

    /** Whether the advisory locks are on in this test's service. */
    abstract boolean locking();

    @Test
    void fiftyBuyersForFiveTicketsGetExactlyFiveHolds() {
        String event = newEvent("race-quota");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 5, List.of(item));
        List<String> carts = newCarts(event, 50);
        List<Outcome> outcomes = race(event, 50, i -> addToCart(event, carts.get(i), Map.of("item_id", item)));
        expect(event, outcomes, 201, () -> {
            assertThat(count(outcomes, 201)).isEqualTo(5);
            assertThat(count(outcomes, "quota_exhausted")).isEqualTo(45);
        });
    }

    @Test
    void anItemInTwoQuotasNeverExceedsEither() {
        String event = newEvent("race-two-quotas");
        long both = newItem(event, "Both", "10");
        long onlyLarge = newItem(event, "Large only", "10");
        long onlySmall = newItem(event, "Small only", "10");
        newQuota(event, 12, List.of(both, onlyLarge));
        newQuota(event, 7, List.of(both, onlySmall));
        long[] items = {both, onlyLarge, onlySmall};
        List<String> carts = newCarts(event, 48);
        List<Outcome> outcomes = race(event, 48,
                i -> addToCart(event, carts.get(i), Map.of("item_id", items[i % 3])));
        expect(event, outcomes, 201, () -> {
            assertThat(count(outcomes, 201)).isBetween(7L, 19L);
            assertThat(count(outcomes, 201) + count(outcomes, "quota_exhausted")).isEqualTo(48);
        });
    }

    @Test
    void oneSeatGoesToExactlyOneOfManyBuyers() {
        String event = newEvent("race-seat");
        long item = newSeatedItem(event, "Seat", "50");
        newQuota(event, 100, List.of(item));
        newSeats(event, item, "Z", 1);
        List<String> carts = newCarts(event, CLIENTS);
        List<Outcome> outcomes = race(event, CLIENTS,
                i -> addToCart(event, carts.get(i), Map.of("item_id", item, "seat_guid", "Z-1")));
        expect(event, outcomes, 201, () -> {
            assertThat(count(outcomes, 201)).isEqualTo(1);
            assertThat(count(outcomes, "seat_unavailable")).isEqualTo(CLIENTS - 1);
        });
    }

    @Test
    void aVoucherForThreeIsRedeemedAtMostThreeTimesAcrossCartsAndOrders() {
        String event = newEvent("race-voucher");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
        newVoucher(event, Map.of("code", "THREE", "max_usages", 3));
        List<String> carts = newCarts(event, CLIENTS);
        List<Outcome> outcomes = race(event, CLIENTS, i -> {
            var added = addToCart(event, carts.get(i), Map.of("item_id", item, "voucher_code", "THREE"));
            return added.statusCode() == 201 && i % 2 == 0 ? checkout(event, carts.get(i)) : added;
        });
        expect(event, outcomes, 201, () -> {
            assertThat(count(outcomes, 201)).isEqualTo(3);
            assertThat(count(outcomes, "voucher_exhausted")).isEqualTo(CLIENTS - 3);
        });
    }

    @Test
    void expiredCartsCheckedOutTogetherNeverOversell() {
        String event = newEvent("race-expired-carts");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, CLIENTS, List.of(item));
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            String cart = cartWith(event, Map.of("item_id", item));
            sql.expireCart(cart);
            carts.add(cart);
        }
        admin().header("If-Match", "\"0\"").body(Map.of("size", 10))
                .patch("/api/v1/events/{event}/quotas/{quota}", event, quota).then().statusCode(200);
        List<Outcome> outcomes = race(event, CLIENTS, i -> checkout(event, carts.get(i)));
        expect(event, outcomes, 201, () -> {
            assertThat(count(outcomes, 201)).isEqualTo(10);
            assertThat(count(outcomes, "quota_exhausted")).isEqualTo(CLIENTS - 10);
        });
    }

    @Test
    void expiredOrdersPaidTogetherAgainstOneTicketMakeExactlyOnePaid() {
        String event = newEvent("race-late-payment");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 1, List.of(item));
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            String code = checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201)
                    .extract().path("code");
            sql.passDeadline(code);
            assertThat(orders.expireIfDue(sql.orderId(code))).isTrue();
            codes.add(code);
        }
        List<Outcome> outcomes = race(event, CLIENTS,
                i -> admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, codes.get(i)));
        expect(event, outcomes, 200, () -> {
            assertThat(count(outcomes, 200)).isEqualTo(1);
            assertThat(count(outcomes, "quota_exhausted")).isEqualTo(CLIENTS - 1);
            assertThat(sql.number("SELECT count(*) FROM orders WHERE status = 'paid' AND code = ANY(?1)",
                    (Object) codes.toArray(String[]::new))).isEqualTo(1);
        });
    }

    @Test
    void aTwentyFiveSeatCartRacingSingleSeatBuyersNeverShareASeat() {
        String event = newEvent("race-big-cart");
        long item = newSeatedItem(event, "Seat", "50");
        newQuota(event, 1000, List.of(item));
        newSeats(event, item, "B", 25);
        List<Map<String, Object>> allSeats = new ArrayList<>();
        for (int seat = 1; seat <= 25; seat++) {
            allSeats.add(Map.of("item_id", item, "seat_guid", "B-" + seat));
        }
        List<String> carts = newCarts(event, CLIENTS);
        List<Outcome> outcomes = race(event, CLIENTS, i -> i == 0
                ? storefront().body(Map.of("positions", allSeats))
                        .post("/api/v1/events/{event}/carts/{cart}/positions", event, carts.get(0))
                : addToCart(event, carts.get(i), Map.of("item_id", item, "seat_guid", "B-" + (1 + i % 25))));
        expect(event, outcomes, 201, () -> {
            long singleWins = count(outcomes.subList(1, CLIENTS), 201);
            if (outcomes.get(0).status() == 201) {
                assertThat(singleWins).as("single seats sold although the big cart holds all 25").isZero();
            } else {
                assertThat(singleWins).isBetween(1L, 25L);
            }
            assertThat(outcomes)
                    .allMatch(outcome -> outcome.status() == 201 || "seat_unavailable".equals(outcome.code()));
        });
    }

    /** Runs the racers, held as {@link RacePauses} says; fails if the race was not decided by them. */
    List<Outcome> race(String event, int racers, IntFunction<Response> racer) {
        try (RacePauses.Race race = pauses.race(sql.number("SELECT id FROM events WHERE slug = ?1", event), racers)) {
            return Crowd.run(racers, racer);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /**
     * With the locks: {@code promised} holds and nothing is oversold. Without: every racer got {@code won}, and
     * the event is oversold.
     */
    void expect(String event, List<Outcome> outcomes, int won, Runnable promised) {
        if (locking()) {
            promised.run();
            Invariants.assertNeverOversold(sql, event);
        } else {
            assertThat(outcomes).as("without locks every racer wins").allMatch(outcome -> outcome.status() == won);
            Invariants.assertOversold(sql, event);
        }
    }
}

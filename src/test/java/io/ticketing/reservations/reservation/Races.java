package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.bestAvailable;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newBundle;
import static io.ticketing.reservations.support.Api.newCartOf;
import static io.ticketing.reservations.support.Api.newCarts;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newQuotaOn;
import static io.ticketing.reservations.support.Api.newSeatRows;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newSeatsOn;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static io.ticketing.reservations.support.Crowd.count;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ticketing.reservations.order.OrderService;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Json;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;
import io.ticketing.reservations.waitinglist.Offers;

/**
 * Buyers racing for the same inventory: real HTTP clients on their own threads, released together, and held
 * after their availability check until every racer has checked or waits for a lock ({@link RacePauses}), so each
 * race is decided the same way on every run. {@link ContentionTest} runs them with the locks, where exactly the
 * promised number win; {@link ContentionWithoutLocksTest} without, where every racer wins and the event is
 * oversold.
 */
abstract class Races {

    static final int CLIENTS = 32;
    private static final String EVENT = "/api/v1/events/{event}";

    @Inject
    Sql sql;

    @Inject
    OrderService orders;

    @Inject
    RacePauses pauses;

    @Inject
    Offers offers;

    /** Whether the advisory locks are on in this test's service. */
    abstract boolean locking();

    @Test
    void fiftyBuyersForFiveTicketsGetExactlyFiveHolds() {
        String event = newEvent("race-quota");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 5, List.of(item));
        List<String> carts = newCarts(event, 50);
        List<Outcome> outcomes = race(event, 50, i -> addToCart(event, carts.get(i), Map.of("item_id", item)));
        expect(event, outcomes, () -> {
            assertThat(count(outcomes, 201)).isEqualTo(5);
            assertThat(count(outcomes, "quota_exhausted")).isEqualTo(45);
        });
    }

    @Test
    void thirtyBuyersOfOneAndTenOfFiftyForTenLeftGetExactlyTen() {
        String event = newEvent("race-mixed");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        List<String> carts = newCarts(event, 40);
        // With the locks, these are decided in batches (ClaimBatches): one that does not fit never refuses another.
        List<Outcome> outcomes = race(event, 40,
                i -> addToCart(event, carts.get(i), Map.of("item_id", item, "quantity", i < 30 ? 1 : 50)));
        assertThat(outcomes.subList(30, 40)).as("fifty never fits in ten")
                .allMatch(outcome -> "quota_exhausted".equals(outcome.code()));
        if (locking()) {
            assertThat(count(outcomes.subList(0, 30), 201)).isEqualTo(10);
            assertThat(count(outcomes.subList(0, 30), "quota_exhausted")).isEqualTo(20);
            Oracle.assertNeverOversold(sql, event);
        } else {
            assertThat(count(outcomes.subList(0, 30), 201)).as("without locks every single wins").isEqualTo(30);
            Oracle.assertOversold(sql, event);
        }
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
        expect(event, outcomes, () -> {
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
        expect(event, outcomes, () -> {
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
        expect(event, outcomes, () -> {
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
        expect(event, outcomes, () -> {
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
            String code = Json.text(checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201)
                    .extract(), "code");
            sql.passDeadline(code);
            assertThat(orders.expireIfDue(sql.orderId(code))).isTrue();
            codes.add(code);
        }
        List<Outcome> outcomes = race(event, CLIENTS,
                i -> admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, codes.get(i)));
        expect(event, outcomes, () -> {
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
        expect(event, outcomes, () -> {
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

    @Test
    void aSeatBlockedWhileThirtyBuyersRaceForItIsEitherBlockedOrHeldNeverBoth() {
        for (int round = 0; round < rounds(); round++) {
            String event = newEvent("race-block-seat");
            long item = newSeatedItem(event, "Seat", "50");
            newQuota(event, 100, List.of(item));
            newSeats(event, item, "S", 1);
            String etag = admin().get(EVENT + "/seats/{guid}", event, "S-1").then().extract().header("ETag");
            List<String> carts = newCarts(event, 30);
            List<Outcome> outcomes = race(event, 31, i -> i == 30
                    ? admin().header("If-Match", etag).body(Map.of("blocked", true))
                            .patch(EVENT + "/seats/{guid}", event, "S-1")
                    : addToCart(event, carts.get(i), Map.of("item_id", item, "seat_guid", "S-1")));
            long blockedAndHeld = sql.number("""
                    SELECT count(*) FROM seats s JOIN events e ON e.id = s.event_id
                    WHERE e.slug = ?1 AND s.blocked AND EXISTS (SELECT 1 FROM cart_positions c
                      WHERE c.seat_id = s.id AND c.expires >= now())""", event);
            expect(event, outcomes, () -> {
                boolean blocked = outcomes.get(30).status() == 200;
                assertThat(count(outcomes, 201) + (blocked ? 1 : 0)).as("holds plus the block").isEqualTo(1);
                assertThat(blockedAndHeld).as("blocked and held").isZero();
            });
            if (!locking()) {
                assertThat(blockedAndHeld).as("blocked and held without the locks").isEqualTo(1);
            }
        }
    }

    @Test
    void raisingABlockingVouchersUsesWhileBuyersRaceNeverOversells() {
        for (int round = 0; round < rounds(); round++) {
            String event = newEvent("race-raise-voucher");
            long item = newItem(event, "Ticket", "10");
            newQuota(event, 10, List.of(item));
            newVoucher(event, Map.of("code", "CREW", "max_usages", 2, "item_id", item, "block_quota", true));
            String etag = admin().get(EVENT + "/vouchers/{code}", event, "CREW").then().extract().header("ETag");
            List<String> carts = newCarts(event, 8);
            List<Outcome> outcomes = race(event, 9, i -> i == 8
                    ? admin().header("If-Match", etag).body(Map.of("max_usages", 6))
                            .patch(EVENT + "/vouchers/{code}", event, "CREW")
                    : addToCart(event, carts.get(i), Map.of("item_id", item)));
            expect(event, outcomes, () -> {
                boolean raised = outcomes.get(8).status() == 200;
                assertThat(count(outcomes, 201) + (raised ? 6 : 2)).as("holds plus blocked uses")
                        .isLessThanOrEqualTo(10);
                if (!raised) {
                    assertThat(outcomes.get(8).code()).isEqualTo("quota_exhausted");
                }
            });
        }
    }

    @Test
    void oneBuyersTenCartsRacingForALimitOfThreeGetExactlyThree() {
        String event = newEvent("race-buyer");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
        admin().header("If-Match", "\"0\"").body(Map.of("max_per_buyer", 3))
                .patch(EVENT + "/items/{item}", event, item).then().statusCode(200);
        List<String> carts = IntStream.range(0, 10).mapToObj(i -> newCartOf(event, "fan-1")).toList();
        List<Outcome> outcomes = race(event, 10, i -> {
            var added = addToCart(event, carts.get(i), Map.of("item_id", item));
            return added.statusCode() == 201 && i % 2 == 0 ? checkout(event, carts.get(i)) : added;
        });
        expect(event, outcomes, () -> {
            assertThat(count(outcomes, 201)).isEqualTo(3);
            assertThat(count(outcomes, "buyer_limit")).isEqualTo(7);
        });
    }

    /** Contract section 8: a bot's burst of joins from one address counts as the joins one after another do. */
    @Test
    void oneClientsTwentyQueueJoinsRacingForALimitOfFourGetExactlyFour() {
        String event = newEvent("race-queue");
        admin().header("If-Match", "\"0\"")
                .body(Map.of("waiting_room", Map.of("enabled", true, "admission_per_minute", 1)))
                .patch(EVENT, event).then().statusCode(200);
        List<Outcome> outcomes = race(event, 20,
                i -> storefront().header("X-Forwarded-For", "198.51.100.20").post(EVENT + "/queue", event));
        if (locking()) {
            assertThat(count(outcomes, 201)).isEqualTo(4);
            assertThat(count(outcomes, "too_many_tickets")).isEqualTo(16);
        } else {
            assertThat(count(outcomes, 201)).as("without locks every join counted too few").isEqualTo(20);
        }
    }

    @Test
    void fiftyBuyersAskingForTheSameBestFourSeatsGetWholeBlocksOrARefusal() {
        String event = newEvent("race-best");
        long item = newSeatedItem(event, "Seat", "50");
        newQuota(event, 100, List.of(item));
        newSeatRows(event, item, "Stalls", List.of("A", "B", "C"), 10);
        List<String> carts = newCarts(event, 50);
        List<Outcome> outcomes = race(event, 50, i -> bestAvailable(event, carts.get(i), item, 4));
        expect(event, outcomes, () -> {
            assertThat(count(outcomes, 201)).isEqualTo(7);
            assertThat(count(outcomes, "seat_unavailable")).isEqualTo(43);
            assertThat(sql.number("""
                    SELECT count(*) FROM (SELECT p.cart_id FROM cart_positions p WHERE p.cart_id = ANY(?1)
                      GROUP BY p.cart_id HAVING count(*) <> 4) partial""",
                    (Object) carts.toArray(String[]::new))).as("carts holding a partial block").isZero();
        });
    }

    /**
     * Offer runs of one event on four "replicas" at once, while twenty buyers try the five tickets a cancel freed and
     * twenty entries wait for: the offers go to the first five entries, never more than was freed, and no buyer gets
     * what the list waits for. Without the locks every run counts the same five free places and offers them again.
     */
    @Test
    void offerRunsAndBuyersRacingForFreedTicketsNeverOfferMoreThanWasFreed() throws Exception {
        String event = newEvent("race-offers");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 5, List.of(item));
        List<String> sold = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sold.add(checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201).extract()
                    .path("code"));
        }
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true)))
                .patch(EVENT, event).then().statusCode(200);
        for (int i = 0; i < 20; i++) {
            storefront().header("X-Forwarded-For", "203.0.113." + i)
                    .body(Map.of("item_id", item, "email", "fan" + i + "@example.com"))
                    .post(EVENT + "/waiting_list", event).then().statusCode(201);
        }
        // Off while the tickets are freed, so that only the racing runs offer them.
        admin().header("If-Match", "\"1\"").body(Map.of("waiting_list", Map.of("enabled", false)))
                .patch(EVENT, event).then().statusCode(200);
        sold.forEach(code -> admin().post(EVENT + "/orders/{code}/cancel", event, code).then().statusCode(200));
        long eventId = sql.number("SELECT id FROM events WHERE slug = ?1", event);
        List<String> carts = newCarts(event, 20);

        ExecutorService replicas = Executors.newFixedThreadPool(4);
        List<Outcome> buyers;
        try (RacePauses.Race race = pauses.race(eventId, 4)) {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> runs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                runs.add(replicas.submit(() -> {
                    go.await();
                    return offers.offer(eventId);
                }));
            }
            go.countDown();
            buyers = Crowd.runRetrying(20, i -> addToCart(event, carts.get(i), Map.of("item_id", item)));
            for (Future<Integer> run : runs) {
                run.get(60, TimeUnit.SECONDS);
            }
        } finally {
            replicas.shutdownNow();
        }
        assertThat(buyers).as("buyers of what the list waits for")
                .allMatch(outcome -> "quota_exhausted".equals(outcome.code()));
        List<?> offered = sql.rows("SELECT e.seq FROM waiting_list_entries e JOIN events v ON v.id = e.event_id"
                + " WHERE v.slug = ?1 AND e.status = 'offered' ORDER BY e.seq", event);
        if (locking()) {
            assertThat(offered).as("entries offered").hasSize(5);
            assertThat(sql.number("SELECT count(*) FROM waiting_list_entries e JOIN events v ON v.id = e.event_id"
                    + " WHERE v.slug = ?1 AND e.status = 'waiting' AND e.seq < ?2", event,
                    ((Number) offered.get(4)).longValue())).as("waiting entries older than an offered one").isZero();
            Oracle.assertNeverOversold(sql, event);
        } else {
            assertThat(offered.size()).as("entries offered without the locks").isGreaterThan(5);
            Oracle.assertOversold(sql, event);
        }
    }

    @Test
    void twoOrderChangesIntoOneFreeSeatGiveItToOne() {
        String event = newEvent("race-change-seat");
        long item = newSeatedItem(event, "Seat", "50");
        newQuota(event, 100, List.of(item));
        newSeats(event, item, "C", 3);
        List<String> codes = new ArrayList<>();
        List<Long> positions = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            String code = Json
                    .text(checkout(event, cartWith(event, Map.of("item_id", item, "seat_guid", "C-" + i))).then()
                            .statusCode(201).extract(), "code");
            codes.add(code);
            positions.add(Json.of(storefront().get(EVENT + "/orders/{code}", event, code).then().extract())
                    .path("positions").path(0).path("id").asLong());
        }
        // One paid, one pending: their positions count in different sales counters, whose row locks would otherwise
        // order the two changes one after the other even without the advisory locks.
        admin().post(EVENT + "/orders/{code}/mark_paid", event, codes.get(0)).then().statusCode(200);
        List<Outcome> outcomes = race(event, 2, i -> admin().header("If-Match", i == 0 ? "\"1\"" : "\"0\"")
                .body(Map.of("operations", List.of(Map.of("op", "change_seat", "position_id", positions.get(i),
                        "seat_guid", "C-3"))))
                .post(EVENT + "/orders/{code}/changes", event, codes.get(i)));
        expect(event, outcomes, () -> {
            assertThat(count(outcomes, 200)).isEqualTo(1);
            assertThat(count(outcomes, "seat_unavailable")).isEqualTo(1);
        });
    }

    /** An order moved to an item whose quota has one ticket left, while five buyers want that ticket. */
    @Test
    void anOrderChangeAndBuyersRacingForAQuotasLastTicketSellItOnce() {
        String event = newEvent("race-change-item");
        long scarce = newItem(event, "Scarce", "30");
        long plenty = newItem(event, "Plenty", "10");
        newQuota(event, 3, List.of(scarce));
        newQuota(event, 100, List.of(plenty));
        for (int i = 0; i < 2; i++) {
            checkout(event, cartWith(event, Map.of("item_id", scarce))).then().statusCode(201);
        }
        String code = Json.text(
                checkout(event, cartWith(event, Map.of("item_id", plenty))).then().statusCode(201).extract(), "code");
        long position = Json.of(storefront().get(EVENT + "/orders/{code}", event, code).then().extract())
                .path("positions").path(0).path("id").asLong();
        List<String> carts = newCarts(event, 5);
        List<Outcome> outcomes = race(event, 6, i -> i == 5
                ? admin().header("If-Match", "\"0\"").body(Map.of("operations", List.of(Map.of("op",
                        "change_item", "position_id", position, "item_id", scarce))))
                        .post(EVENT + "/orders/{code}/changes", event, code)
                : addToCart(event, carts.get(i), Map.of("item_id", scarce)));
        expect(event, outcomes, () -> {
            assertThat(count(outcomes, 200) + count(outcomes, 201)).as("the last ticket").isEqualTo(1);
            assertThat(count(outcomes, "quota_exhausted")).isEqualTo(5);
        });
    }

    // Combined claims (ClaimBatches): the racers are dealt out by cart to two batch queues, as to two replicas, and
    // each queue's racers are decided in one batch, in arrival order against what the claims before them took. With
    // the locks, the two batches take turns; without, both count before either writes.

    @Test
    void claimsThatFitAndClaimsThatCannotShareTwoBatchesAndSellExactlyWhatIsLeft() {
        String event = newEvent("batch-quota");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        List<String> carts = newCarts(event, 40);
        // 0 to 29 want one ticket, 30 to 39 fifty.
        List<Outcome> outcomes = raceInBatches(event, twoQueues(carts), 40, 40,
                i -> addToCart(event, carts.get(i), Map.of("item_id", item, "quantity", i < 30 ? 1 : 50)));
        assertThat(outcomes.subList(30, 40)).as("fifty never fits in ten")
                .allMatch(outcome -> "quota_exhausted".equals(outcome.code()));
        expectInBatches(event, () -> {
            assertThat(count(outcomes.subList(0, 30), 201)).as("singles sold").isEqualTo(10);
            assertThat(count(outcomes.subList(0, 30), "quota_exhausted")).isEqualTo(20);
        });
    }

    @Test
    void oneSeatWantedInBothBatchesGoesToOneBuyer() {
        String event = newEvent("batch-seat");
        long item = newSeatedItem(event, "Seat", "50");
        newQuota(event, 100, List.of(item));
        newSeats(event, item, "Z", 1);
        List<String> carts = newCarts(event, 8);
        List<Outcome> outcomes = raceInBatches(event, twoQueues(carts), 8, 8,
                i -> addToCart(event, carts.get(i), Map.of("item_id", item, "seat_guid", "Z-1")));
        expectInBatches(event, () -> {
            assertThat(count(outcomes, 201)).isEqualTo(1);
            assertThat(count(outcomes, "seat_unavailable")).isEqualTo(7);
        });
    }

    @Test
    void oneVoucherUseWantedByManyInBothBatchesIsRedeemedOnce() {
        String event = newEvent("batch-voucher");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
        newVoucher(event, Map.of("code", "ONCE", "max_usages", 1));
        List<String> carts = newCarts(event, 10);
        List<Outcome> outcomes = raceInBatches(event, twoQueues(carts), 10, 10,
                i -> addToCart(event, carts.get(i), Map.of("item_id", item, "voucher_code", "ONCE")));
        expectInBatches(event, () -> {
            assertThat(count(outcomes, 201)).isEqualTo(1);
            assertThat(count(outcomes, "voucher_exhausted")).isEqualTo(9);
        });
    }

    @Test
    void aBuyersLimitIsCrossedWithinNeitherBatch() {
        String event = newEvent("batch-buyer");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
        admin().header("If-Match", "\"0\"").body(Map.of("max_per_buyer", 2))
                .patch(EVENT + "/items/{item}", event, item).then().statusCode(200);
        List<String> carts = IntStream.range(0, 8).mapToObj(i -> newCartOf(event, "fan-1")).toList();
        List<Outcome> outcomes = raceInBatches(event, twoQueues(carts), 8, 8,
                i -> addToCart(event, carts.get(i), Map.of("item_id", item)));
        expectInBatches(event, () -> {
            assertThat(count(outcomes, 201)).isEqualTo(2);
            assertThat(count(outcomes, "buyer_limit")).isEqualTo(6);
        });
    }

    /**
     * A double click: one cart's add sent twice at once with one {@code Idempotency-Key}, into one batch queue, with
     * other buyers of the last ticket in both queues. The key runs once: the second request is answered that the
     * first still runs, and its retry replays the first's answer. What the key promises rests on the queue and the
     * key's row, not on the advisory locks, so it holds without them too; the last ticket does not.
     */
    @Test
    void theSameIdempotencyKeyTwiceInOneBatchChangesTheCartOnce() {
        String event = newEvent("batch-key");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 1, List.of(item));
        List<String> carts = newCarts(event, 6);
        String key = "double-click-" + event;
        // Requests 0 and 1: cart 0 with the key, in the first queue with carts 1 and 2; carts 3 to 5 in the second.
        Map<String, Integer> queues = new HashMap<>();
        for (int i = 0; i < carts.size(); i++) {
            queues.put(carts.get(i), i < 3 ? 0 : 1);
        }
        IntFunction<Response> keyed = i -> storefront().header("Idempotency-Key", key)
                .body(Map.of("positions", List.of(Map.of("item_id", item))))
                .post(EVENT + "/carts/{cart}/positions", event, carts.get(0));
        List<Outcome> outcomes = raceInBatches(event, queues, 7, 6,
                i -> i < 2 ? keyed.apply(i) : addToCart(event, carts.get(i - 1), Map.of("item_id", item)));

        // The second click usually finds the first waiting in the queue (409 in use); one that comes after the first
        // was decided gets the first's answer again, or runs again if the first was refused (which is not kept).
        List<Outcome> doubleClick = outcomes.subList(0, 2);
        assertThat(doubleClick).allMatch(outcome -> outcome.status() == 201
                || "idempotency_key_in_use".equals(outcome.code()) || "quota_exhausted".equals(outcome.code()));
        Optional<Outcome> sold = doubleClick.stream().filter(outcome -> outcome.status() == 201).findFirst();
        assertThat(doubleClick).filteredOn(outcome -> outcome.status() == 201)
                .allMatch(outcome -> outcome.body().equals(sold.orElseThrow().body()));
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1", carts.get(0)))
                .as("tickets the key added").isEqualTo(sold.isPresent() ? 1 : 0);
        Response retried = keyed.apply(0);
        if (sold.isPresent()) {
            assertThat(retried.header("Idempotent-Replayed")).isEqualTo("true");
            assertThat(retried.asString()).isEqualTo(sold.get().body());
        } else {
            assertThat(Json.text(retried, "code")).isEqualTo("quota_exhausted");
        }
        expectInBatches(event, () -> assertThat(count(outcomes, 201)).as("holds of the last ticket").isEqualTo(1));
    }

    @Test
    void passesAndOneDatesBuyersRacingForThatDatesLastPlacesNeverOversellAnyDate() {
        String event = newEvent("race-pass");
        long friday = newDate(event, 4);
        long saturday = newDate(event, 5);
        long single = newItem(event, "Single", "10");
        long pass = newItem(event, Map.of("name", "Pass", "price", "25", "every_date", true));
        newQuotaOn(event, friday, 5, List.of(single, pass));
        newQuotaOn(event, saturday, 50, List.of(single, pass));
        List<String> carts = newCarts(event, CLIENTS);
        List<Outcome> outcomes = race(event, CLIENTS, i -> addToCart(event, carts.get(i), i % 2 == 0
                ? Map.of("item_id", pass)
                : Map.of("item_id", single, "date_id", friday)));
        expect(event, outcomes, () -> {
            assertThat(count(outcomes, 201)).as("Friday's five places").isEqualTo(5);
            assertThat(count(outcomes, "quota_exhausted")).isEqualTo(CLIENTS - 5);
        });
    }

    @Test
    void aBundleAndBuyersOfItsBundledItemRacingForItsLastTicketsSellThemOnce() {
        String event = newEvent("race-bundle");
        long drink = newItem(event, "Drink", "4");
        long combo = newBundle(event, "Combo", "20", drink, 2);
        newQuota(event, 100, List.of(combo));
        newQuota(event, 6, List.of(drink));
        List<String> carts = newCarts(event, CLIENTS);
        List<Outcome> outcomes = race(event, CLIENTS,
                i -> addToCart(event, carts.get(i), Map.of("item_id", i % 2 == 0 ? combo : drink)));
        expect(event, outcomes, () -> {
            long drinksSold = sql.number("SELECT count(*) FROM cart_positions c JOIN carts k ON k.id = c.cart_id"
                    + " JOIN events e ON e.id = k.event_id WHERE e.slug = ?1 AND c.item_id = ?2", event, drink);
            assertThat(drinksSold).as("the six drinks, bundled or not").isEqualTo(6);
            assertThat(count(outcomes, 201) + count(outcomes, "quota_exhausted")).isEqualTo(CLIENTS);
        });
    }

    @Test
    void oneSeatGuidOnTwoDatesGoesToOneBuyerOnEachDate() {
        String event = newEvent("race-date-seat");
        long friday = newDate(event, 4);
        long saturday = newDate(event, 5);
        long seat = newSeatedItem(event, "Seat", "50");
        newQuotaOn(event, friday, 100, List.of(seat));
        newQuotaOn(event, saturday, 100, List.of(seat));
        newSeatsOn(event, friday, seat, "Z", 1);
        newSeatsOn(event, saturday, seat, "Z", 1);
        List<String> carts = newCarts(event, CLIENTS);
        List<Outcome> outcomes = race(event, CLIENTS, i -> addToCart(event, carts.get(i),
                Map.of("item_id", seat, "seat_guid", "Z-1", "date_id", i % 2 == 0 ? friday : saturday)));
        expect(event, outcomes, () -> {
            assertThat(count(outcomes, 201)).as("one a date").isEqualTo(2);
            assertThat(sql.number("SELECT count(DISTINCT c.date_id) FROM cart_positions c JOIN carts k"
                    + " ON k.id = c.cart_id JOIN events e ON e.id = k.event_id WHERE e.slug = ?1", event))
                    .isEqualTo(2);
            assertThat(count(outcomes, "seat_unavailable")).isEqualTo(CLIENTS - 2);
        });
    }

    /** Runs the racers, held as {@link RacePauses} says; fails if the race was not decided by them. */
    /** With the locks, who wins a race varies from round to round; without them, one round shows the oversell. */
    int rounds() {
        return locking() ? 3 : 1;
    }

    List<Outcome> race(String event, int racers, IntFunction<Response> racer) {
        try (RacePauses.Race race = pauses.race(sql.number("SELECT id FROM events WHERE slug = ?1", event), racers)) {
            return Crowd.runRetrying(racers, racer);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Even carts in one queue, odd ones in the other. */
    private static Map<String, Integer> twoQueues(List<String> carts) {
        Map<String, Integer> queues = new HashMap<>();
        for (int i = 0; i < carts.size(); i++) {
            queues.put(carts.get(i), i % 2);
        }
        return queues;
    }

    /**
     * {@link #race} in batches: {@code clients} requests dealt out by their carts to {@code queues}, of which
     * {@code racers} wait for a batch (the others are answered at once, as a second request with a key in use is).
     */
    List<Outcome> raceInBatches(String event, Map<String, Integer> queues, int clients, int racers,
            IntFunction<Response> racer) {
        long eventId = sql.number("SELECT id FROM events WHERE slug = ?1", event);
        try (RacePauses.Race race = pauses.raceInBatches(eventId, queues, racers)) {
            return Crowd.runRetrying(clients, racer);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** With the locks: {@code promised} holds and nothing is oversold. Without: the two batches oversold. */
    void expectInBatches(String event, Runnable promised) {
        if (locking()) {
            promised.run();
            Oracle.assertNeverOversold(sql, event);
        } else {
            Oracle.assertOversold(sql, event);
        }
    }

    /** With the locks: {@code promised} holds and nothing is oversold. Without: every racer won, and it oversold. */
    void expect(String event, List<Outcome> outcomes, Runnable promised) {
        if (locking()) {
            promised.run();
            Oracle.assertNeverOversold(sql, event);
        } else {
            assertThat(outcomes).as("without locks every racer wins").allMatch(outcome -> outcome.status() / 100 == 2);
            Oracle.assertOversold(sql, event);
        }
    }
}

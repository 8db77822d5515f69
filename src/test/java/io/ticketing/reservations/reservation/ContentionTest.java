package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static io.ticketing.reservations.support.Crowd.count;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.locking.LockProbe;
import io.ticketing.reservations.order.OrderService;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Sql;

/**
 * Buyers racing for the same inventory: real HTTP clients on their own threads, released together. Each test
 * fails with the advisory locks switched off (checked by hand: see the README).
 */
@QuarkusTest
class ContentionTest {

    private static final int CLIENTS = 32;

    @Inject
    Sql sql;

    @Inject
    OrderService orders;

    @Inject
    LockProbe probe;

    @Test
    void fiftyBuyersForFiveTicketsGetExactlyFiveHolds() {
        String event = newEvent("race-quota");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 5, List.of(item));
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            carts.add(newCart(event));
        }
        List<Outcome> outcomes = Crowd.run(50, i -> addToCart(event, carts.get(i), Map.of("item_id", item)));
        assertThat(count(outcomes, 201)).isEqualTo(5);
        assertThat(count(outcomes, "quota_exhausted")).isEqualTo(45);
        Invariants.assertNeverOversold(sql, event);
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
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            carts.add(newCart(event));
        }
        List<Outcome> outcomes = Crowd.run(48, i -> addToCart(event, carts.get(i), Map.of("item_id", items[i % 3])));
        assertThat(count(outcomes, 201)).isBetween(7L, 19L);
        assertThat(count(outcomes, 201) + count(outcomes, "quota_exhausted")).isEqualTo(48);
        Invariants.assertNeverOversold(sql, event);
    }

    @Test
    void oneSeatGoesToExactlyOneOfManyBuyers() {
        String event = newEvent("race-seat");
        long item = newSeatedItem(event, "Seat", "50");
        newQuota(event, 100, List.of(item));
        newSeats(event, item, "Z", 1);
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            carts.add(newCart(event));
        }
        List<Outcome> outcomes = Crowd.run(CLIENTS,
                i -> addToCart(event, carts.get(i), Map.of("item_id", item, "seat_guid", "Z-1")));
        assertThat(count(outcomes, 201)).isEqualTo(1);
        assertThat(count(outcomes, "seat_unavailable")).isEqualTo(CLIENTS - 1);
        Invariants.assertNeverOversold(sql, event);
    }

    @Test
    void aVoucherForThreeIsRedeemedAtMostThreeTimesAcrossCartsAndOrders() {
        String event = newEvent("race-voucher");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
        newVoucher(event, Map.of("code", "THREE", "max_usages", 3));
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            carts.add(newCart(event));
        }
        List<Outcome> outcomes = Crowd.run(CLIENTS, i -> {
            var added = addToCart(event, carts.get(i), Map.of("item_id", item, "voucher_code", "THREE"));
            return added.statusCode() == 201 && i % 2 == 0 ? checkout(event, carts.get(i)) : added;
        });
        assertThat(count(outcomes, 201)).isEqualTo(3);
        assertThat(count(outcomes, "voucher_exhausted")).isEqualTo(CLIENTS - 3);
        Invariants.assertNeverOversold(sql, event);
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
        List<Outcome> outcomes = Crowd.run(CLIENTS, i -> checkout(event, carts.get(i)));
        assertThat(count(outcomes, 201)).isEqualTo(10);
        assertThat(count(outcomes, "quota_exhausted")).isEqualTo(CLIENTS - 10);
        Invariants.assertNeverOversold(sql, event);
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
        List<Outcome> outcomes = Crowd.run(CLIENTS,
                i -> admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, codes.get(i)));
        assertThat(count(outcomes, 200)).isEqualTo(1);
        assertThat(count(outcomes, "quota_exhausted")).isEqualTo(CLIENTS - 1);
        assertThat(sql.number("SELECT count(*) FROM orders WHERE status = 'paid' AND code = ANY(?1)",
                (Object) codes.toArray(String[]::new))).isEqualTo(1);
        Invariants.assertNeverOversold(sql, event);
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
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            carts.add(newCart(event));
        }
        List<Outcome> outcomes = Crowd.run(CLIENTS, i -> i == 0
                ? storefront().body(Map.of("positions", allSeats))
                        .post("/api/v1/events/{event}/carts/{cart}/positions", event, carts.get(0))
                : addToCart(event, carts.get(i), Map.of("item_id", item, "seat_guid", "B-" + (1 + i % 25))));
        long singleWins = count(outcomes.subList(1, CLIENTS), 201);
        if (outcomes.get(0).status() == 201) {
            assertThat(singleWins).as("single seats sold although the big cart holds all 25").isZero();
        } else {
            assertThat(singleWins).isBetween(1L, 25L);
        }
        assertThat(outcomes).allMatch(outcome -> outcome.status() == 201 || "seat_unavailable".equals(outcome.code()));
        Invariants.assertNeverOversold(sql, event);
    }

    @Test
    void aMixedWorkloadKeepsEveryInvariant() {
        String event = newEvent("race-mixed");
        long ticket = newItem(event, "Ticket", "10");
        long vip = newItem(event, "VIP", "90");
        long seat = newSeatedItem(event, "Seat", "40");
        newQuota(event, 20, List.of(ticket, vip));
        newQuota(event, 6, List.of(vip));
        newQuota(event, 100, List.of(seat));
        newSeats(event, seat, "M", 15);
        newVoucher(event, Map.of("code", "MIX", "max_usages", 4));
        newVoucher(event, Map.of("code", "MIXBLOCK", "max_usages", 3, "item_id", ticket, "block_quota", true));
        List<Map<String, Object>> choices = List.of(Map.of("item_id", ticket), Map.of("item_id", ticket, "quantity", 2),
                Map.of("item_id", vip), Map.of("item_id", ticket, "voucher_code", "MIX"),
                Map.of("item_id", ticket, "voucher_code", "MIXBLOCK"));
        List<Outcome> outcomes = Crowd.run(CLIENTS, client -> {
            Random random = new Random(client);
            String cart = newCart(event);
            List<String> ordered = new ArrayList<>();
            io.restassured.response.Response last = null;
            for (int step = 0; step < 12; step++) {
                last = switch (random.nextInt(8)) {
                    case 0, 1 -> addToCart(event, cart,
                            random.nextBoolean()
                                    ? choices.get(random.nextInt(choices.size()))
                                    : Map.of("item_id", seat, "seat_guid", "M-" + (1 + random.nextInt(15))));
                    case 2 -> {
                        List<Integer> ids = storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart)
                                .then().extract().path("positions.id");
                        yield ids.isEmpty()
                                ? storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, cart)
                                : storefront().delete("/api/v1/events/{event}/carts/{cart}/positions/{position}", event,
                                        cart, ids.get(random.nextInt(ids.size())));
                    }
                    case 3 -> {
                        sql.expireCart(cart);
                        yield storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, cart);
                    }
                    case 4, 5 -> {
                        var placed = checkout(event, cart);
                        if (placed.statusCode() == 201) {
                            ordered.add(placed.path("code"));
                            cart = newCart(event);
                        }
                        yield placed;
                    }
                    default -> ordered.isEmpty()
                            ? storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, cart)
                            : admin().post(
                                    "/api/v1/events/{event}/orders/{code}/"
                                            + (random.nextBoolean() ? "mark_paid" : "cancel"),
                                    event, ordered.get(random.nextInt(ordered.size())));
                };
                if (last.statusCode() >= 500 && !"lock_timeout".equals(last.path("code"))) {
                    return last;
                }
            }
            return last;
        });
        assertThat(outcomes).noneMatch(outcome -> outcome.status() >= 500 && !"lock_timeout".equals(outcome.code()));
        assertThat(
                sql.number("SELECT count(*) FROM orders o JOIN events e ON e.id = o.event_id WHERE e.slug = ?1", event))
                .isPositive();
        Invariants.assertNeverOversold(sql, event);
    }

    @Test
    void readsAnswerAtOnceWhileTheEventIsLockedExclusively() throws Exception {
        String event = newEvent("reads-unlocked");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(item));
        String cart = cartWith(event, Map.of("item_id", item));
        String order = checkout(event, cartWith(event, Map.of("item_id", item))).then().extract().path("code");
        long eventId = admin().get("/api/v1/events/{event}", event).then().extract().jsonPath().getLong("id");
        CountDownLatch acquired = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService holder = Executors.newSingleThreadExecutor();
        try {
            Future<?> held = holder.submit(() -> {
                probe.holdEventExclusively(eventId, acquired, release);
                return null;
            });
            assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
            List<String> reads = List.of("/api/v1/events/" + event + "/availability",
                    "/api/v1/events/" + event + "/quotas/" + quota + "/availability",
                    "/api/v1/events/" + event + "/carts/" + cart, "/api/v1/events/" + event + "/orders/" + order,
                    "/api/v1/events/" + event + "/seats?available=true", "/api/v1/events/" + event + "/items");
            // A read that waited for the lock would wait until the release below, 30 s away; 1 s is "at once"
            // with room for a slow CI machine.
            for (String read : reads) {
                long started = System.nanoTime();
                admin().get(read).then().statusCode(200);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as(read).isLessThan(Duration.ofSeconds(1));
            }
            addToCart(event, newCart(event), Map.of("item_id", item)).then().statusCode(503);
            release.countDown();
            held.get(10, TimeUnit.SECONDS);
        } finally {
            release.countDown();
            holder.shutdownNow();
        }
    }
}

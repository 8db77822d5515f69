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
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

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
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.locking.LockProbe;
import io.ticketing.reservations.locking.ProductionLockBound;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Oracle;

/**
 * The races of {@link Races} with the locks on, and two workloads that only make sense with them: a mixed crowd
 * keeping every invariant, and reads answering while the event is locked. With production's lock bound: in a JVM
 * that has just started, fifty racers reach the lock over more than the tests' second, the first ones time out and
 * back off, and they are never all held at once.
 */
@QuarkusTest
@TestProfile(ProductionLockBound.class)
class ContentionTest extends Races {

    @Override
    boolean locking() {
        return true;
    }

    @Inject
    LockProbe probe;

    @Test
    void aQuotaAddedWhileABuyerTakesItsLocksIsCountedWhenTheServiceRunsTheAddAgain() throws Exception {
        String event = newEvent("inventory-changed");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        String cart = newCart(event);
        // The buyer read that the item is in one quota and will lock only that one; now it is in two.
        pauses.heldBeforeLocksWhile(sql.number("SELECT id FROM events WHERE slug = ?1", event),
                () -> addToCart(event, cart, Map.of("item_id", item)), () -> newQuota(event, 0, List.of(item)))
                .then().statusCode(409).body("code", equalTo("quota_exhausted"));
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart).then().body("positions", hasSize(0));
        Oracle.assertNeverOversold(sql, event);
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
        Oracle.assertNeverOversold(sql, event);
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

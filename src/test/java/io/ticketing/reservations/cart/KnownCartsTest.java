package io.ticketing.reservations.cart;

import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.ticketing.reservations.support.SettableClock;

/**
 * A batch of adds answers a cart from what this replica knows of it ({@link KnownCarts}) only while no other change
 * wrote the cart's row. A request with an {@code Idempotency-Key} is decided as a batch even alone, so these adds take
 * the batch's path.
 */
@QuarkusTest
class KnownCartsTest {

    @Inject
    KnownCarts known;
    @Inject
    SettableClock clock;

    private static Response add(String event, String cart, long item) {
        return storefront().header("Idempotency-Key", UUID.randomUUID().toString())
                .body(Map.of("positions", List.of(Map.of("item_id", item, "quantity", 2))))
                .post("/api/v1/events/{event}/carts/{cart}/positions", event, cart);
    }

    /** An event with one item in a quota of 100, and an empty cart. */
    private record Sale(String event, long item, String cart) {

        static Sale open(String prefix) {
            String event = newEvent(prefix);
            long item = newItem(event, "Ticket", "10");
            newQuota(event, 100, List.of(item));
            return new Sale(event, item, newCart(event));
        }

        Response add() {
            return KnownCartsTest.add(event, cart, item);
        }
    }

    private static List<Long> positionIds(Response answer) {
        return answer.then().statusCode(201).extract().jsonPath().getList("positions.id", Long.class);
    }

    @Test
    void shouldAnswerAnAddWithoutThePositionRemovedAfterTheCartWasKnown() {
        Sale sale = Sale.open("known-remove");
        List<Long> first = positionIds(sale.add());
        assertThat(known.usableAt(new String[]{sale.cart()}, Instant.now())).containsKey(sale.cart());

        storefront().delete("/api/v1/events/{event}/carts/{cart}/positions/{position}", sale.event(), sale.cart(),
                first.get(0)).then().statusCode(204);
        List<Long> after = positionIds(sale.add());

        assertThat(after).hasSize(3).doesNotContain(first.get(0)).contains(first.get(1));
        assertThat(positionIds(sale.add())).hasSize(5).doesNotContain(first.get(0));
    }

    @Test
    void shouldForgetACartCheckedOutOrDeleted() {
        Sale bought = Sale.open("known-checkout");
        Sale dropped = Sale.open("known-delete");
        positionIds(bought.add());
        positionIds(dropped.add());
        String[] both = {bought.cart(), dropped.cart()};
        assertThat(known.usableAt(both, Instant.now())).containsOnlyKeys(both);

        checkout(bought.event(), bought.cart()).then().statusCode(201);
        storefront().delete("/api/v1/events/{event}/carts/{cart}", dropped.event(), dropped.cart()).then()
                .statusCode(204);

        assertThat(known.usableAt(both, Instant.now())).isEmpty();
    }

    @Test
    void shouldAnswerAnAddWithTheDeadlinesAnExtendGave() {
        Sale sale = Sale.open("known-extend");
        String added = sale.add().then().statusCode(201).extract().path("positions[0].expires");
        String extended;
        clock.set(Instant.now().plus(Duration.ofMinutes(5)));
        try {
            extended = storefront().post("/api/v1/events/{event}/carts/{cart}/extend", sale.event(), sale.cart())
                    .then().statusCode(200).extract().path("positions[0].expires");
        } finally {
            clock.reset();
        }
        assertThat(extended).isNotEqualTo(added);

        String answered = sale.add().then().statusCode(201).extract().path("positions[0].expires");

        assertThat(answered).isEqualTo(extended);
    }

    @Test
    void shouldNotAnswerFromWhatWasReadLongAgoOrHoldsAPositionAboutToExpire() {
        Instant now = Instant.parse("2026-06-01T12:00:00Z");
        CartPosition live = position(now.plus(Duration.ofMinutes(30)));
        CartPosition expiring = position(now.plus(KnownCarts.CLOCK_MARGIN).minusSeconds(1));
        KnownCarts carts = new KnownCarts();
        carts.remember("fresh", new KnownCarts.Revision(7, 1, now), List.of(live), now);
        carts.remember("old", new KnownCarts.Revision(7, 1, now.minus(KnownCarts.MAX_AGE)), List.of(live), now);
        carts.remember("expiring", new KnownCarts.Revision(7, 1, now), List.of(live, expiring), now);

        assertThat(carts.usableAt(new String[]{"fresh", "old", "expiring", "unknown"}, now)).containsOnlyKeys("fresh");
    }

    @Test
    void shouldMakeRoomFromCartsLeftIdleAndKeepTheCartsInUse() {
        Instant now = Instant.parse("2026-06-01T12:00:00Z");
        List<CartPosition> full = Collections.nCopies(KnownCarts.MAX_POSITIONS,
                position(now.plus(Duration.ofMinutes(30))));
        List<CartPosition> half = full.subList(0, KnownCarts.MAX_POSITIONS / 2);
        KnownCarts carts = new KnownCarts();
        Instant before = now.minus(KnownCarts.IDLE).minusMillis(1);
        carts.remember("left", new KnownCarts.Revision(7, 1, before), half, before);
        carts.remember("busy", new KnownCarts.Revision(7, 1, now), half, now);
        carts.remember("new", new KnownCarts.Revision(7, 1, now), full.subList(0, 10), now);

        assertThat(carts.usableAt(new String[]{"busy", "new"}, now)).containsOnlyKeys("busy");
        carts.remember("new", new KnownCarts.Revision(7, 1, now), full.subList(0, 10), now);
        carts.remember("one too many", new KnownCarts.Revision(7, 1, now), half, now);
        assertThat(carts.usableAt(new String[]{"busy", "new", "one too many"}, now)).containsOnlyKeys("busy", "new");

        carts.remember("busy", new KnownCarts.Revision(8, 1, now), full, now);
        assertThat(carts.usableAt(new String[]{"busy", "new"}, now)).containsOnlyKeys("new");
        carts.remember("one too many", new KnownCarts.Revision(7, 1, now), half, now);
        assertThat(carts.usableAt(new String[]{"one too many"}, now)).containsOnlyKeys("one too many");
    }

    private static CartPosition position(Instant expires) {
        return new CartPosition(1, 1, null, null, BigDecimal.TEN, expires, null, null, null, null);
    }
}

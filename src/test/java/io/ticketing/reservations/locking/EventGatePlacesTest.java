package io.ticketing.reservations.locking;

import static io.ticketing.reservations.support.Api.newCarts;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newOrganizer;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newToken;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.ticketing.reservations.reservation.ClaimBatches;
import io.ticketing.reservations.support.Api;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Sql;

/**
 * Whose an event's request places in {@link EventGate} are: a request's, from the moment it gets one until its work
 * ends, whoever still listens for its answer; and only a request that may act on the event queues for one. The
 * event's quota is locked from outside, so the first add waits for it in PostgreSQL and the others for its next batch.
 */
@QuarkusTest
@TestProfile(EventGatePlacesTest.FewPlaces.class)
class EventGatePlacesTest {

    private static final int PLACES = 3;
    /** For a request that waits for nothing, on a shared and noisy machine; a tenth of the lock bound. */
    private static final Duration PROMPT = Duration.ofSeconds(1);

    @Inject
    EventGate gate;

    @Inject
    ClaimBatches batches;

    @Inject
    LockProbe probe;

    @Inject
    Sql sql;

    public static class FewPlaces implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lock.requests-per-event", "" + PLACES, "lock.timeout", "10s");
        }
    }

    /** An event whose one item is in one quota. */
    private record OnSale(String event, long eventId, long item, long quota) {
    }

    private OnSale onSale(String prefix) {
        String event = newEvent(prefix);
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 100, List.of(item));
        return new OnSale(event, sql.number("SELECT id FROM events WHERE slug = ?1", event), item, quota);
    }

    /** The quota's lock, held from outside until closed. */
    private LockProbe.Held quotaLocked(OnSale sale) throws InterruptedException {
        return probe.holdInBackground(sale.eventId(), List.of(LockTarget.quota(sale.quota(), null)));
    }

    @Test
    void aRequestWhoseClientHungUpKeepsItsPlaceUntilItsWorkEnds() throws Exception {
        OnSale sale = onSale("gate-threads");
        String event = sale.event();
        long item = sale.item();
        long eventId = sale.eventId();
        List<String> carts = newCarts(event, 2 * PLACES);
        List<CompletableFuture<Response>> staying = new ArrayList<>();
        try (LockProbe.Held held = quotaLocked(sale)) {
            List<Socket> leaving = new ArrayList<>();
            for (String cart : carts.subList(0, PLACES)) {
                leaving.add(EventGateDisconnectTest.addToCart(event, cart, item));
            }
            Eventually.within(Duration.ofSeconds(10), "the first add at the lock and the others waiting for its batch",
                    () -> batches.waiting(eventId) == PLACES - 1);
            for (Socket client : leaving) {
                client.setSoLinger(true, 0);
                client.close();
            }
            for (String cart : carts.subList(PLACES, 2 * PLACES)) {
                staying.add(CompletableFuture.supplyAsync(() -> Api.addToCart(event, cart, Map.of("item_id", item))));
            }
            Eventually.within(Duration.ofSeconds(10), "every add of the event waiting at the gate or for a batch",
                    () -> gate.queued(event) + batches.waiting(eventId) == 2 * PLACES - 1);
            // The batch's leader and those waiting for the next batch each hold a request thread.
            assertThat(1 + batches.waiting(eventId)).as("request threads of the event").isEqualTo(PLACES);
            assertThat(gate.queued(event)).as("adds queued at the gate").isEqualTo(PLACES);
        }
        for (CompletableFuture<Response> added : staying) {
            added.get(30, TimeUnit.SECONDS).then().statusCode(201);
        }
        Eventually.within(Duration.ofSeconds(10), "every place of the event given back",
                () -> gate.freePlaces(event) == PLACES);
    }

    @Test
    void anotherOrganizersTokenHearsNotFoundAtOnceAndTakesNoPlace() throws Exception {
        OnSale sale = onSale("gate-tenant");
        String event = sale.event();
        long item = sale.item();
        String stranger = newToken(newOrganizer("gate-stranger"), "storefront", null);
        List<String> carts = newCarts(event, PLACES + 1);
        // The gate judges the caller by the request's identity; a token's first request was once seen queueing (1 run
        // in 8, not understood: see issue 40's note), so the token is known to the service before the race.
        RestAssured.given().header("Authorization", "Bearer " + stranger).get("/api/v1/events/{event}/catalog", event)
                .then().statusCode(404);
        List<CompletableFuture<Response>> filling = new ArrayList<>();
        try (LockProbe.Held held = quotaLocked(sale)) {
            for (String cart : carts.subList(0, PLACES + 1)) {
                filling.add(CompletableFuture.supplyAsync(() -> Api.addToCart(event, cart, Map.of("item_id", item))));
            }
            Eventually.within(Duration.ofSeconds(10), "every place of the event taken, and one add queued for one",
                    () -> gate.freePlaces(event) == 0 && gate.queued(event) == 1);

            long started = System.nanoTime();
            Response answer = RestAssured.given().header("Authorization", "Bearer " + stranger)
                    .contentType("application/json").body(Map.of("positions", List.of(Map.of("item_id", item))))
                    .post("/api/v1/events/{event}/carts/{cart}/positions", event, carts.get(0));
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(404);
            assertThat(answer.jsonPath().getString("code")).isEqualTo("not_found");
            assertThat(took).as("a 404 that waits for no place").isLessThan(PROMPT);
            assertThat(gate.queued(event)).as("adds queued at the gate").isEqualTo(1);
        }
        for (CompletableFuture<Response> added : filling) {
            added.get(30, TimeUnit.SECONDS).then().statusCode(201);
        }
        assertThat(sql.number("SELECT count(*) FROM cart_positions c JOIN carts k ON k.id = c.cart_id"
                + " WHERE k.event_id = ?1", sale.eventId())).as("holds: the event's own adds' alone")
                .isEqualTo(PLACES + 1);
    }
}

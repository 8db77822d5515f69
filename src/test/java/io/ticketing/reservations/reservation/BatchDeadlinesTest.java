package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.ticketing.reservations.locking.LockProbe;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * Each request in a batch keeps its own lock bound (contract section 2: nothing is refused for another request's
 * failure). The quota's lock is held from outside; two adds arrive at once and three more most of a bound later.
 * The first two run out of time; the late three still have theirs when the lock is let go, and get their tickets.
 * Before each member kept its own deadline, the late three were refused with the batch of the second, on its clock.
 */
@QuarkusTest
class BatchDeadlinesTest {

    /** What the late three arrive after: most of the tests' 1 s bound, so that theirs outlasts the early two's. */
    private static final Duration LATER = Duration.ofMillis(600);

    @Inject
    Sql sql;

    @Inject
    LockProbe probe;

    @Inject
    ClaimBatches batches;

    @Test
    void aRequestThatJoinsABatchLateKeepsTheRestOfItsOwnBound() throws Exception {
        String event = newEvent("batch-deadlines");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 100, List.of(item));
        long eventId = sql.number("SELECT id FROM events WHERE slug = ?1", event);
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            carts.add(newCart(event));
        }
        List<CompletableFuture<Response>> early = new ArrayList<>();
        List<CompletableFuture<Response>> late = new ArrayList<>();
        try (LockProbe.Held held = probe.holdInBackground(eventId, List.of(LockTarget.quota(quota, null)))) {
            for (int i = 0; i < 2; i++) {
                String cart = carts.get(i);
                early.add(CompletableFuture.supplyAsync(() -> addToCart(event, cart, Map.of("item_id", item))));
            }
            Eventually.within(Duration.ofSeconds(5), "the second add waiting for the first's batch to end",
                    () -> batches.waiting(eventId) == 1);
            // Not a synchronisation: the time that makes the late adds' bounds end after the early ones'.
            Thread.sleep(LATER.toMillis());
            for (int i = 2; i < 5; i++) {
                String cart = carts.get(i);
                late.add(CompletableFuture.supplyAsync(() -> addToCart(event, cart, Map.of("item_id", item))));
            }
            Eventually.within(Duration.ofSeconds(5), "the late adds waiting behind the first",
                    () -> batches.waiting(eventId) == 4);
            for (CompletableFuture<Response> add : early) {
                Response answer = add.get(10, TimeUnit.SECONDS);
                assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(503);
                assertThat(answer.jsonPath().getString("code")).isEqualTo("lock_timeout");
            }
        }
        for (CompletableFuture<Response> add : late) {
            Response answer = add.get(10, TimeUnit.SECONDS);
            assertThat(answer.statusCode()).as("a late add, with time left: %s", answer.asString()).isEqualTo(201);
        }
        Oracle.assertNeverOversold(sql, event);
    }
}

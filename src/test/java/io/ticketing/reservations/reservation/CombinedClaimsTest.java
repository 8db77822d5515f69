package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newCartOf;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newVoucher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.ticketing.reservations.locking.LockProbe;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * Adds to cart and checkouts decided together ({@link ClaimBatches}): the event's lock (or the carts' rows, for
 * checkouts, which lock no capacity) is held from outside while the racers arrive, so the first waits for it in
 * PostgreSQL and every other one waits for the next batch; once it is released, all of those are decided in one
 * transaction. Each is decided in arrival order against what those
 * before it took: exact outcomes, nothing oversold, and one request's refusal never refuses another.
 */
@QuarkusTest
@TestProfile(CombinedClaimsTest.RoomyGate.class)
class CombinedClaimsTest {

    /** Every racer on a request thread at once, and time to queue them all behind the held lock. */
    public static class RoomyGate implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lock.requests-per-event", "60", "lock.timeout", "10s");
        }
    }

    @Inject
    Sql sql;

    @Inject
    LockProbe probe;

    @Inject
    ClaimBatches batches;

    @Inject
    DataSource dataSource;

    @Test
    void claimsThatFitAndClaimsThatCannotInOneBatchSellExactlyWhatIsLeft() throws Exception {
        String event = newEvent("batch-quota");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            carts.add(newCart(event));
        }
        // Clients 0 to 29 want one ticket, 30 to 39 fifty each.
        List<Outcome> outcomes = inOneBatch(event, 40,
                i -> addToCart(event, carts.get(i), Map.of("item_id", item, "quantity", i < 30 ? 1 : 50)));

        assertThat(outcomes.subList(30, 40)).as("every request for fifty")
                .allMatch(outcome -> "quota_exhausted".equals(outcome.code()));
        assertThat(Crowd.count(outcomes.subList(0, 30), 201)).as("singles sold").isEqualTo(10);
        assertThat(Crowd.count(outcomes.subList(0, 30), "quota_exhausted")).as("singles refused").isEqualTo(20);
        assertThat(heldIn(event)).isEqualTo(10);
        Oracle.assertNeverOversold(sql, event);
    }

    @Inject
    MeterRegistry meters;

    @Test
    void oneSeatOneVoucherAndOneBuyersLimitHoldInsideOneBatch() throws Exception {
        double rerunBefore = meters.counter("inventory.claims.batch.rerun").count();
        String event = newEvent("batch-mixed");
        long seated = newSeatedItem(event, "Seat", "50");
        long ticket = newItem(event, "Ticket", "10");
        long limited = newItem(event, "Limited", "10");
        newQuota(event, 100, List.of(seated, ticket, limited));
        newSeats(event, seated, "S", 1);
        newVoucher(event, Map.of("code", "THREE", "max_usages", 3));
        admin().header("If-Match", "\"0\"").body(Map.of("max_per_buyer", 2))
                .patch("/api/v1/events/{event}/items/{item}", event, limited).then().statusCode(200);
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < 18; i++) {
            carts.add(i < 12 ? newCart(event) : newCartOf(event, "fan"));
        }
        // 0 to 4: the one seat; 5 to 11: the voucher for three; 12 to 17: one buyer's carts, limited to two.
        List<Outcome> outcomes = inOneBatch(event, 18, i -> addToCart(event, carts.get(i), i < 5
                ? Map.of("item_id", seated, "seat_guid", "S-1")
                : i < 12 ? Map.of("item_id", ticket, "voucher_code", "THREE") : Map.of("item_id", limited)));

        assertThat(Crowd.count(outcomes.subList(0, 5), 201)).as("holders of the seat").isEqualTo(1);
        assertThat(Crowd.count(outcomes.subList(0, 5), "seat_unavailable")).isEqualTo(4);
        assertThat(Crowd.count(outcomes.subList(5, 12), 201)).as("uses of the voucher").isEqualTo(3);
        assertThat(Crowd.count(outcomes.subList(5, 12), "voucher_exhausted")).isEqualTo(4);
        assertThat(Crowd.count(outcomes.subList(12, 18), 201)).as("the buyer's tickets").isEqualTo(2);
        assertThat(Crowd.count(outcomes.subList(12, 18), "buyer_limit")).isEqualTo(4);
        assertThat(heldIn(event)).isEqualTo(6);
        assertThat(meters.counter("inventory.claims.batch.rerun").count())
                .as("decided in the batch, not each request again alone after it failed").isEqualTo(rerunBefore);
        Oracle.assertNeverOversold(sql, event);
    }

    /** A refused add changes nothing in a batch, as alone: its cart keeps its deadline. */
    @Test
    void addsRefusedInABatchLeaveTheirCartsAsTheyWere() throws Exception {
        String event = newEvent("batch-refused");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 1, List.of(item));
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            carts.add(newCart(event));
        }
        Map<String, Object> before = cartDeadlines(event);

        List<Outcome> outcomes = inOneBatch(event, 10, i -> addToCart(event, carts.get(i), Map.of("item_id", item)));

        assertThat(Crowd.count(outcomes, 201)).isEqualTo(1);
        assertThat(Crowd.count(outcomes, "quota_exhausted")).isEqualTo(9);
        Map<String, Object> after = cartDeadlines(event);
        for (int i = 0; i < 10; i++) {
            if (outcomes.get(i).status() != 201) {
                assertThat(after.get(carts.get(i))).as("the deadline of refused cart %d", i)
                        .isEqualTo(before.get(carts.get(i)));
            }
        }
        Oracle.assertNeverOversold(sql, event);
    }

    private Map<String, Object> cartDeadlines(String event) {
        Map<String, Object> deadlines = new HashMap<>();
        sql.rows("SELECT k.id, k.expires FROM carts k JOIN events e ON e.id = k.event_id WHERE e.slug = ?1", event)
                .forEach(row -> deadlines.put((String) ((Object[]) row)[0], ((Object[]) row)[1]));
        return deadlines;
    }

    @Test
    void checkoutsInOneBatchEachGetTheirOwnOrderOrTheirOwnRefusal() throws Exception {
        String event = newEvent("batch-checkout");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            carts.add(newCart(event));
            if (i < 10) {
                addToCart(event, carts.get(i), Map.of("item_id", item, "quantity", 2)).then().statusCode(201);
            }
        }
        // 0 to 9: one checkout each; 10: that cart once more; 11: an empty cart; then a cart that does not exist,
        // sent once the others wait, since nothing would hold it back as the first of a batch.
        IntFunction<String> cartOf = i -> i < 10 ? carts.get(i) : i == 10 ? carts.get(0) : carts.get(11);
        List<Outcome> outcomes;
        Response missing;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder
                    .prepareStatement("SELECT id FROM carts WHERE id = ANY(?) FOR UPDATE")) {
                lock.setArray(1, holder.createArrayOf("text", carts.toArray()));
                lock.executeQuery().close();
            }
            long eventId = sql.number("SELECT id FROM events WHERE slug = ?1", event);
            CompletableFuture<List<Outcome>> racing = CompletableFuture
                    .supplyAsync(() -> Crowd.run(12, i -> checkout(event, cartOf.apply(i))));
            CompletableFuture<Response> unknown;
            try {
                Eventually.within(Duration.ofSeconds(10), "every checkout but the first waiting for the next batch",
                        () -> batches.waiting(eventId) == 11);
                unknown = CompletableFuture.supplyAsync(() -> checkout(event, "no-such-cart"));
                Eventually.within(Duration.ofSeconds(10), "the unknown cart's checkout waiting too",
                        () -> batches.waiting(eventId) == 12);
            } finally {
                holder.rollback();
            }
            outcomes = racing.get(30, TimeUnit.SECONDS);
            missing = unknown.get(30, TimeUnit.SECONDS);
        }
        List<Outcome> cartZero = List.of(outcomes.get(0), outcomes.get(10));
        assertThat(Crowd.count(cartZero, 201)).as("orders of the cart checked out twice").isEqualTo(1);
        assertThat(Crowd.count(cartZero, "not_found")).isEqualTo(1);
        assertThat(Crowd.count(outcomes.subList(1, 10), 201)).as("the other orders").isEqualTo(9);
        assertThat(outcomes.get(11).code()).isEqualTo("cart_empty");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(sql.number("SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id"
                + " JOIN events e ON e.id = o.event_id WHERE e.slug = ?1", event)).as("tickets sold").isEqualTo(20);
        assertThat(heldIn(event)).as("holds left").isZero();
        Oracle.assertNeverOversold(sql, event);
    }

    /**
     * A date nothing names yet may be deleted while adds to it wait for its lock; each then answers as if the date
     * had never been: 404, nothing written. The first waits alone and meets the deleted date at its insert (a foreign
     * key, run again); the batch behind it reads the date gone.
     */
    @Test
    void addsWaitingForADatesLockWhileItIsDeletedAreNotFoundAndWriteNothing() throws Exception {
        DatedSale sale = datedSale("deleted-date-alone");
        List<CompletableFuture<Response>> adds = new ArrayList<>();
        try (LockProbe.Held friday = probe.holdInBackground(sale.eventId(), List.of(LockTarget.date(sale.friday())))) {
            adds.add(sale.addOnFriday(0));
            Eventually.within(Duration.ofSeconds(10), "the first add at Friday's lock", () -> lockWaiters() == 1);
            adds.add(sale.addOnFriday(1));
            adds.add(sale.addOnFriday(2));
            Eventually.within(Duration.ofSeconds(10), "two adds waiting for the next batch",
                    () -> batches.waiting(sale.eventId()) == 2);
            sale.deleteFriday();
        }
        for (CompletableFuture<Response> add : adds) {
            add.get(30, TimeUnit.SECONDS).then().statusCode(404).body("code", equalTo("not_found"));
        }
        assertThat(heldIn(sale.event())).isZero();
    }

    /** As above, but the batch itself waits at Friday's lock when the date goes, and meets it at its insert. */
    @Test
    void aBatchWaitingForADatesLockWhileItIsDeletedIsNotFoundAndWritesNothing() throws Exception {
        DatedSale sale = datedSale("deleted-date-batch");
        LockProbe.Held saturday = probe.holdInBackground(sale.eventId(), List.of(LockTarget.date(sale.saturday())));
        List<CompletableFuture<Response>> batch;
        try (LockProbe.Held friday = probe.holdInBackground(sale.eventId(), List.of(LockTarget.date(sale.friday())))) {
            CompletableFuture<Response> first = CompletableFuture.supplyAsync(() -> addToCart(sale.event(),
                    sale.carts().get(0), Map.of("item_id", sale.item(), "date_id", sale.saturday())));
            Eventually.within(Duration.ofSeconds(10), "the first add at Saturday's lock", () -> lockWaiters() == 1);
            batch = List.of(sale.addOnFriday(1), sale.addOnFriday(2));
            Eventually.within(Duration.ofSeconds(10), "two adds waiting for the next batch",
                    () -> batches.waiting(sale.eventId()) == 2);
            saturday.close();
            first.get(30, TimeUnit.SECONDS).then().statusCode(201);
            Eventually.within(Duration.ofSeconds(10), "the batch at Friday's lock",
                    () -> batches.waiting(sale.eventId()) == 0 && lockWaiters() == 1);
            sale.deleteFriday();
        }
        for (CompletableFuture<Response> add : batch) {
            add.get(30, TimeUnit.SECONDS).then().statusCode(404).body("code", equalTo("not_found"));
        }
        assertThat(heldIn(sale.event())).as("Saturday's hold alone").isEqualTo(1);
    }

    /** An event on two dates whose one item is in a quota of no date, so that either date may be deleted. */
    private record DatedSale(String event, long eventId, long friday, long saturday, long item, List<String> carts) {

        CompletableFuture<Response> addOnFriday(int cart) {
            return CompletableFuture.supplyAsync(
                    () -> addToCart(event, carts.get(cart), Map.of("item_id", item, "date_id", friday)));
        }

        /** Allowed: the adds waiting for their locks have written nothing yet. */
        void deleteFriday() {
            admin().delete("/api/v1/events/{event}/dates/{date}", event, friday).then().statusCode(204);
        }
    }

    private DatedSale datedSale(String prefix) {
        String event = newEvent(prefix);
        long friday = newDate(event, 4);
        long saturday = newDate(event, 5);
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        return new DatedSale(event, sql.number("SELECT id FROM events WHERE slug = ?1", event), friday, saturday, item,
                List.of(newCart(event), newCart(event), newCart(event)));
    }

    private long lockWaiters() {
        return sql.number("SELECT count(*) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND wait_event_type = 'Lock'");
    }

    /**
     * Sends the {@code racers} requests while the event's lock is held from outside, and releases it once the first
     * waits for it and every other one waits for the next batch: those are then decided together.
     */
    private List<Outcome> inOneBatch(String event, int racers, IntFunction<Response> racer) throws Exception {
        long eventId = sql.number("SELECT id FROM events WHERE slug = ?1", event);
        CountDownLatch acquired = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
            try {
                probe.holdEventExclusively(eventId, acquired, release);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(acquired.await(10, TimeUnit.SECONDS)).as("the event's lock held").isTrue();
        CompletableFuture<List<Outcome>> outcomes = CompletableFuture.supplyAsync(() -> Crowd.run(racers, racer));
        try {
            Eventually.within(Duration.ofSeconds(10), "every racer but the first waiting for the next batch",
                    () -> batches.waiting(eventId) == racers - 1);
        } finally {
            release.countDown();
        }
        holder.get(10, TimeUnit.SECONDS);
        return outcomes.get(30, TimeUnit.SECONDS);
    }

    private long heldIn(String event) {
        return sql.number("SELECT count(*) FROM cart_positions c JOIN carts k ON k.id = c.cart_id"
                + " JOIN events e ON e.id = k.event_id WHERE e.slug = ?1", event);
    }
}

package io.ticketing.reservations.operations;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newQuotaOn;
import static io.ticketing.reservations.support.Api.newSeatRowsOn;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.storefront;
import static io.ticketing.reservations.support.Management.management;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.reservation.ClaimBatches;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Sql;

/**
 * One replica as it is deployed (3 connections, 64 request threads, 48 of them for one event's writers, 2 writers
 * per event in a transaction, the 3 s lock bound), with one event's lock held from outside: that event's writers
 * hear lock_timeout at the bound, end to end (the first waiting in PostgreSQL, the others for its next batch), and
 * nothing else waits. And a request that waited too long for a request thread is refused, not served late.
 */
@QuarkusTest
@TestProfile(LockedEventTest.AsDeployed.class)
class LockedEventTest {

    private static final Duration BOUND = Duration.ofSeconds(3);
    /** For a request that waits for nothing, on a shared and noisy machine. */
    private static final Duration PROMPT = Duration.ofSeconds(1);
    private static final int WRITERS = 12;
    private static final int THREADS = 64;
    private static final Duration MAX_THREAD_WAIT = Duration.ofMillis(500);

    @Inject
    ClaimBatches batches;

    @Inject
    Sql sql;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @ConfigProperty(name = "quarkus.datasource.username")
    String username;

    @ConfigProperty(name = "quarkus.datasource.password")
    String password;

    public static class AsDeployed implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.datasource.jdbc.max-size", "3", "quarkus.thread-pool.max-threads", "" + THREADS,
                    "lock.writers-per-event", "2", "lock.requests-per-event", "48", "lock.timeout", "3s",
                    "http.max-thread-wait", MAX_THREAD_WAIT.toMillis() + "ms");
        }
    }

    private record Timed(Response response, Duration took) {

        static Timed of(Supplier<Response> request) {
            long started = System.nanoTime();
            Response response = request.get();
            response.asString();
            return new Timed(response, Duration.ofNanos(System.nanoTime() - started));
        }
    }

    @Test
    void writersOfALockedEventTimeOutAtTheBoundWhileReadsAndOtherEventsAnswerAtOnce() throws Exception {
        String locked = newEvent("locked");
        long lockedItem = newItem(locked, "Ticket", "10");
        newQuota(locked, 100, List.of(lockedItem));
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < WRITERS; i++) {
            carts.add(newCart(locked));
        }
        String other = newEvent("unlocked");
        long otherItem = newItem(other, "Ticket", "10");
        newQuota(other, 100, List.of(otherItem));
        String otherCart = newCart(other);
        long eventId = sql.number("SELECT id FROM events WHERE slug = ?1", locked);
        long eventKey = LockTarget.event(eventId).key();

        ExecutorService clients = Executors.newFixedThreadPool(WRITERS);
        try (Connection holder = DriverManager.getConnection(url, username, password)) {
            execute(holder, "SELECT pg_advisory_lock(" + eventKey + ")");
            List<Future<Timed>> writers = new ArrayList<>();
            for (String cart : carts) {
                writers.add(
                        clients.submit(() -> Timed.of(() -> addToCart(locked, cart, Map.of("item_id", lockedItem)))));
            }
            awaitLockWaiters(holder, 1);
            Eventually.within(Duration.ofSeconds(10), "the other writers waiting for the next batch",
                    () -> batches.waiting(eventId) == WRITERS - 1);

            List<Timed> unaffected = List.of(
                    Timed.of(() -> storefront().get("/api/v1/events/{event}/catalog", locked)),
                    Timed.of(() -> admin().get("/api/v1/events/{event}/items", locked)),
                    Timed.of(() -> storefront().post("/api/v1/events/{event}/carts", locked)),
                    Timed.of(() -> addToCart(other, otherCart, Map.of("item_id", otherItem))),
                    Timed.of(() -> management().get("/q/health/ready")));
            for (Timed answer : unaffected) {
                assertThat(answer.response().statusCode()).as(answer.response().asString()).isBetween(200, 201);
                assertThat(answer.took()).as("an answer that waits for no lock").isLessThan(PROMPT);
            }

            for (Future<Timed> writer : writers) {
                Timed answer = writer.get(30, TimeUnit.SECONDS);
                assertThat(answer.response().statusCode()).isEqualTo(503);
                assertThat(answer.response().jsonPath().getString("code")).isEqualTo("lock_timeout");
                assertThat(answer.took()).as("lock_timeout end to end").isGreaterThanOrEqualTo(BOUND)
                        .isLessThan(BOUND.plus(PROMPT));
            }
        } finally {
            clients.shutdownNow();
        }
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE item_id = ?1", lockedItem)).isZero();
        // The gate let everyone through again: the event sells once its lock is free.
        addToCart(locked, carts.get(0), Map.of("item_id", lockedItem)).then().statusCode(201);
    }

    @Test
    void oneDatesExclusiveLockLeavesAnotherDatesBestAvailableAndAddToCartAnsweringAtOnce() throws Exception {
        String event = newEvent("locked-date");
        long friday = newDate(event, 4);
        long saturday = newDate(event, 5);
        long ticket = newItem(event, "Ticket", "10");
        long seat = newSeatedItem(event, "Seat", "30");
        newQuotaOn(event, friday, 100, List.of(ticket, seat));
        newQuotaOn(event, saturday, 100, List.of(ticket, seat));
        newSeatRowsOn(event, friday, seat, "A", List.of("1"), 10);
        newSeatRowsOn(event, saturday, seat, "A", List.of("1"), 10);
        String fridayCart = newCart(event);
        String saturdayCart = newCart(event);
        long fridayKey = LockTarget.date(friday).key();

        ExecutorService clients = Executors.newSingleThreadExecutor();
        try (Connection holder = DriverManager.getConnection(url, username, password)) {
            // What best available on Friday holds while it chooses, and what a Friday quota's creation holds.
            execute(holder, "SELECT pg_advisory_lock(" + fridayKey + ")");
            Future<Timed> waiting = clients.submit(() -> Timed.of(() -> bestAvailableOn(event, fridayCart, seat,
                    friday)));
            awaitLockWaiters(holder, 1);

            List<Timed> saturdays = List.of(
                    Timed.of(() -> bestAvailableOn(event, saturdayCart, seat, saturday)),
                    Timed.of(() -> addToCart(event, saturdayCart, Map.of("item_id", ticket, "date_id", saturday))),
                    Timed.of(() -> storefront().queryParam("date_id", friday)
                            .get("/api/v1/events/{event}/catalog", event)));
            for (Timed answer : saturdays) {
                assertThat(answer.response().statusCode()).as(answer.response().asString()).isBetween(200, 201);
                assertThat(answer.took()).as("an answer on another date").isLessThan(PROMPT);
            }
            assertThat(waiting.get(30, TimeUnit.SECONDS).response().jsonPath().getString("code"))
                    .as("best available on the locked date").isEqualTo("lock_timeout");
        } finally {
            clients.shutdownNow();
        }
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1", saturdayCart)).isEqualTo(3);
        bestAvailableOn(event, fridayCart, seat, friday).then().statusCode(201);
    }

    private static Response bestAvailableOn(String event, String cart, long item, long date) {
        return storefront().body(Map.of("item_id", item, "quantity", 2, "date_id", date))
                .post("/api/v1/events/{event}/carts/{cart}/best_available", event, cart);
    }

    @Test
    void aRequestThatWaitedTooLongForARequestThreadIsRefusedAsOverloaded() throws Exception {
        String event = newEvent("overload");
        BusyThreadsResource.release = new CountDownLatch(1);
        BusyThreadsResource.started = new CountDownLatch(THREADS);
        QueuedRequests.ready = new CountDownLatch(1);
        ExecutorService clients = Executors.newFixedThreadPool(THREADS + 1);
        try {
            List<Future<Response>> busy = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                busy.add(clients.submit(() -> given().get("/test/busy")));
            }
            assertThat(BusyThreadsResource.started.await(10, TimeUnit.SECONDS)).as("every request thread busy")
                    .isTrue();
            CompletableFuture<Timed> queued = CompletableFuture.supplyAsync(
                    () -> Timed
                            .of(() -> admin().header(QueuedRequests.HEADER, "1").get("/api/v1/events/{event}", event)),
                    clients);
            assertThat(QueuedRequests.ready.await(10, TimeUnit.SECONDS)).as("the request waiting for a thread")
                    .isTrue();
            // What is bounded is the queued request's wait, so time must pass: past the bound, a thread frees up.
            Thread.sleep(MAX_THREAD_WAIT.plusMillis(200).toMillis());
            assertThat(queued).as("a request waiting for a request thread").isNotCompleted();
            BusyThreadsResource.release.countDown();
            Timed answer = queued.get(10, TimeUnit.SECONDS);
            assertThat(answer.response().statusCode()).isEqualTo(503);
            assertThat(answer.response().jsonPath().getString("code")).isEqualTo("overloaded");
            assertThat(answer.response().header("Retry-After")).isEqualTo("1");
            for (Future<Response> request : busy) {
                assertThat(request.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            }
        } finally {
            BusyThreadsResource.release.countDown();
            clients.shutdownNow();
        }
        admin().get("/api/v1/events/{event}", event).then().statusCode(200);
    }

    private static void execute(Connection connection, String sql) throws Exception {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void awaitLockWaiters(Connection connection, int waiters) throws Exception {
        try (PreparedStatement waiting = connection.prepareStatement(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")) {
            Eventually.within(Duration.ofSeconds(2), waiters + " writers waiting for the held lock", () -> {
                try (ResultSet rows = waiting.executeQuery()) {
                    rows.next();
                    return rows.getInt(1) >= waiters;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }
}

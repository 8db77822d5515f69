package io.ticketing.reservations.locking;

import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.ticketing.reservations.support.Api;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Sql;

/**
 * Clients that hang up while their request is in {@link EventGate}, at each stage: queued for a request place,
 * holding one and waiting for a transaction place, and waiting in PostgreSQL for the event's lock. Every place
 * must come back (a leaked one would be gone until the replica restarts), and a request whose client left while it
 * was queued is withdrawn rather than served: it would take a place and a thread, and leave a phantom hold.
 */
@QuarkusTest
@TestProfile(EventGateDisconnectTest.FewPlaces.class)
class EventGateDisconnectTest {

    private static final int PLACES = 4;
    private static final int WRITERS = 2;
    private static final int CLIENTS = 10;

    @Inject
    EventGate gate;

    @Inject
    Sql sql;

    @Inject
    LockProbe probe;

    public static class FewPlaces implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // Each add in a transaction of its own, so that WRITERS of them wait in PostgreSQL at once.
            return Map.of("lock.requests-per-event", "" + PLACES, "lock.writers-per-event", "" + WRITERS,
                    "lock.timeout", "10s", "reservation.combine", "false");
        }
    }

    @Test
    void clientsThatHangUpAnywhereInTheGateGiveTheirPlacesBack() throws Exception {
        String event = newEvent("gate-hang-up");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
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
        List<Socket> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(addToCart(event, newCart(event), item));
        }
        // WRITERS wait for the lock in PostgreSQL, PLACES - WRITERS for a transaction place, the rest in the queue.
        Eventually.within(Duration.ofSeconds(10), "writers waiting for the event's lock",
                () -> lockWaiters() == WRITERS && gate.freePlaces(event) == 0);
        for (Socket client : clients) {
            client.setSoLinger(true, 0);
            client.close();
        }
        release.countDown();
        holder.get(10, TimeUnit.SECONDS);
        Eventually.within(Duration.ofSeconds(10), "every place of the event given back",
                () -> gate.freePlaces(event) == PLACES);
        // Those that hung up while queued are never served: no phantom holds from buyers who left.
        assertThat(sql.number("SELECT count(*) FROM cart_positions c JOIN carts k ON k.id = c.cart_id"
                + " JOIN events e ON e.id = k.event_id WHERE e.slug = ?1", event)).isLessThanOrEqualTo(PLACES);
    }

    /** A raw request whose answer is never read, on a socket the test can close as a browser tab would. */
    static Socket addToCart(String event, String cart, long item) throws Exception {
        byte[] body = ("{\"positions\":[{\"item_id\":" + item + "}]}").getBytes(StandardCharsets.UTF_8);
        Socket socket = new Socket("localhost", RestAssured.port);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /api/v1/events/" + event + "/carts/" + cart + "/positions HTTP/1.1\r\nHost: localhost\r\n"
                + "Authorization: " + Api.STOREFRONT + "\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        return socket;
    }

    private long lockWaiters() {
        return sql.number("SELECT count(*) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND wait_event_type = 'Lock'");
    }
}

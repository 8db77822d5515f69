package io.ticketing.reservations.locking;

import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Api;

/** The event gate keeps places for events this replica knows, so random slugs cost it no memory. */
@QuarkusTest
class EventGateEntriesTest {

    @Inject
    EventGate gate;

    @Test
    void writesToEventsThatDoNotExistLeaveTheGateAsItWas() {
        for (int i = 0; i < 200; i++) {
            storefront().body(Map.of("positions", List.of(Map.of("item_id", 1))))
                    .post("/api/v1/events/{event}/carts/{cart}/positions", "no-such-event-" + i, "cart").then()
                    .statusCode(404);
        }
        // By slug, not by how many events have places: the gate's minutely sweep may drop other tests' events meanwhile.
        assertThat(IntStream.range(0, 200).filter(i -> gate.gates("no-such-event-" + i)))
                .as("unknown events with places at the gate").isEmpty();

        String event = Api.newEvent("gated");
        String cart = Api.newCart(event);
        storefront().body(Map.of("positions", List.of(Map.of("item_id", 1))))
                .post("/api/v1/events/{event}/carts/{cart}/positions", event, cart).then().statusCode(404);
        assertThat(gate.gates(event)).as("a known event's writers pass its places").isTrue();
    }
}

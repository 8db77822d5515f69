package io.ticketing.reservations.locking;

import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

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
        int before = gate.gated();
        for (int i = 0; i < 200; i++) {
            storefront().body(Map.of("positions", List.of(Map.of("item_id", 1))))
                    .post("/api/v1/events/{event}/carts/{cart}/positions", "no-such-event-" + i, "cart").then()
                    .statusCode(404);
        }
        assertThat(gate.gated()).as("events with places at the gate").isEqualTo(before);

        String event = Api.newEvent("gated");
        String cart = Api.newCart(event);
        storefront().body(Map.of("positions", List.of(Map.of("item_id", 1))))
                .post("/api/v1/events/{event}/carts/{cart}/positions", event, cart).then().statusCode(404);
        assertThat(gate.gated()).as("a known event's writers pass its places").isEqualTo(before + 1);
    }
}

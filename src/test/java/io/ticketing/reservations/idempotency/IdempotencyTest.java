package io.ticketing.reservations.idempotency;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.cart.CartResource;
import io.ticketing.reservations.event.EventResource;
import io.ticketing.reservations.inventory.InventoryResource;
import io.ticketing.reservations.inventory.SeatResource;
import io.ticketing.reservations.inventory.VoucherResource;
import io.ticketing.reservations.order.OrderResource;
import io.ticketing.reservations.support.Sql;

@QuarkusTest
class IdempotencyTest {

    @Inject
    Sql sql;

    private static String positions(String event, String cart) {
        return "/api/v1/events/" + event + "/carts/" + cart + "/positions";
    }

    @Test
    void shouldReplayTheFirstResponseToTheSameKeyAndBody() {
        String event = newEvent("idem-replay");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(item));
        String cart = newCart(event);
        String key = UUID.randomUUID().toString();
        Map<String, Object> body = Map.of("positions", List.of(Map.of("item_id", item, "quantity", 2)));
        String first = storefront().header("Idempotency-Key", key).body(body).post(positions(event, cart))
                .then().statusCode(201).body("positions", hasSize(2)).extract().asString();
        String again = storefront().header("Idempotency-Key", key).body(body).post(positions(event, cart))
                .then().statusCode(201).header("Idempotent-Replayed", "true").extract().asString();
        assertThat(again).isEqualTo(first);
        admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().body("cart_positions", equalTo(2));
    }

    @Test
    void shouldReplayACreatedCartInsteadOfMakingASecond() {
        String event = newEvent("idem-cart");
        String key = UUID.randomUUID().toString();
        String first = storefront().header("Idempotency-Key", key).post("/api/v1/events/{event}/carts", event)
                .then().statusCode(201).extract().path("id");
        String second = storefront().header("Idempotency-Key", key).post("/api/v1/events/{event}/carts", event)
                .then().statusCode(201).extract().path("id");
        assertThat(second).isEqualTo(first);
        // Another token's key space is its own.
        String other = admin().header("Idempotency-Key", key).post("/api/v1/events/{event}/carts", event)
                .then().statusCode(201).extract().path("id");
        assertThat(other).isNotEqualTo(first);
    }

    @Test
    void shouldRefuseTheSameKeyWithAnotherBody() {
        String event = newEvent("idem-reused");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(item));
        String cart = newCart(event);
        String key = UUID.randomUUID().toString();
        storefront().header("Idempotency-Key", key).body(Map.of("positions", List.of(Map.of("item_id", item))))
                .post(positions(event, cart)).then().statusCode(201);
        storefront().header("Idempotency-Key", key)
                .body(Map.of("positions", List.of(Map.of("item_id", item, "quantity", 3))))
                .post(positions(event, cart)).then().statusCode(422).contentType("application/problem+json")
                .body("code", equalTo("idempotency_key_reused"));
        admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().body("cart_positions", equalTo(1));
    }

    @Test
    void shouldNotStoreAConflictSoARetryRunsAgain() {
        String event = newEvent("idem-conflict");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 1, List.of(item));
        String other = cartWith(event, Map.of("item_id", item));
        String cart = newCart(event);
        String key = UUID.randomUUID().toString();
        Map<String, Object> body = Map.of("positions", List.of(Map.of("item_id", item)));
        storefront().header("Idempotency-Key", key).body(body).post(positions(event, cart))
                .then().statusCode(409).body("code", equalTo("quota_exhausted"));
        storefront().delete("/api/v1/events/{event}/carts/{cart}", event, other).then().statusCode(204);
        storefront().header("Idempotency-Key", key).body(body).post(positions(event, cart)).then().statusCode(201);
    }

    @Test
    void shouldRefuseAnAbsurdKey() {
        String event = newEvent("idem-bad-key");
        storefront().header("Idempotency-Key", "k".repeat(300)).post("/api/v1/events/{event}/carts", event)
                .then().statusCode(400).body("errors[0].field", equalTo("Idempotency-Key"));
        addToCart(event, "no-such-cart-000000000000", Map.of("item_id", 1)).then().statusCode(404);
    }

    @Test
    void everyPostEndpointHonoursTheKeyAndReturnsAResponse() {
        for (Class<?> resource : List.of(EventResource.class, InventoryResource.class, SeatResource.class,
                VoucherResource.class, CartResource.class, OrderResource.class)) {
            assertThat(resource).hasAnnotation(Idempotent.class).hasAnnotation(Path.class);
            for (Method method : Arrays.stream(resource.getDeclaredMethods())
                    .filter(method -> method.isAnnotationPresent(POST.class)).toList()) {
                assertThat(method.getReturnType()).as(method.toString()).isEqualTo(Response.class);
            }
        }
    }
}

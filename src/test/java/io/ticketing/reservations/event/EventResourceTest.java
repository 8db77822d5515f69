package io.ticketing.reservations.event;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Api.ADMIN;
import static io.ticketing.reservations.support.Api.STOREFRONT;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.storefront;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

@QuarkusTest
class EventResourceTest {

    private String slug;

    @BeforeEach
    void createEvent() {
        slug = newEvent("event-resource-test");
    }

    @Test
    void shouldGetAnEventWithItsVersionAsETag() {
        given().header("Authorization", ADMIN)
                .get("/api/v1/events/{event}", slug)
                .then().statusCode(200)
                .header("ETag", "\"0\"")
                .body("slug", equalTo(slug))
                .body("currency", equalTo("EUR"))
                .body("cart_ttl_seconds", equalTo(1800))
                .body("payment_term_seconds", equalTo(1_209_600));
    }

    @Test
    void shouldCreateAnEventWithDefaults() {
        String created = "created-" + System.nanoTime();
        given().header("Authorization", ADMIN).contentType("application/json")
                .body(Map.of("slug", created, "name", "Spring Gala", "currency", "CHF"))
                .post("/api/v1/events")
                .then().statusCode(201)
                .header("Location", equalTo("http://localhost:" + RestAssured.port + "/api/v1/events/" + created))
                .header("ETag", "\"0\"")
                .body("slug", equalTo(created))
                .body("cart_ttl_seconds", equalTo(1800));
    }

    @Test
    void shouldRefuseASecondEventWithTheSameSlug() {
        given().header("Authorization", ADMIN).contentType("application/json")
                .body(Map.of("slug", slug, "name", "Again", "currency", "EUR"))
                .post("/api/v1/events")
                .then().statusCode(409).contentType("application/problem+json").body("code", equalTo("slug_taken"));
    }

    @Test
    void shouldRefuseInvalidEventsNamingEachField() {
        given().header("Authorization", ADMIN).contentType("application/json")
                .body(Map.of("slug", "-Bad Slug", "name", "", "currency", "EUR", "cart_ttl_seconds", -5))
                .post("/api/v1/events")
                .then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("validation_failed"))
                .body("errors.field", containsInAnyOrder("cart_ttl_seconds", "name", "slug"));
        given().header("Authorization", ADMIN).contentType("application/json")
                .body(Map.of("slug", "unknown-currency", "name", "X", "currency", "ABC"))
                .post("/api/v1/events")
                .then().statusCode(400).body("errors[0].field", equalTo("currency"));
        given().header("Authorization", ADMIN).get("/api/v1/events/{event}", "unknown-currency")
                .then().statusCode(404);
    }

    @Test
    void shouldRefuseMalformedJsonAndWrongTypes() {
        given().header("Authorization", ADMIN).contentType("application/json").body("{\"slug\": ")
                .post("/api/v1/events")
                .then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("validation_failed"));
        given().header("Authorization", ADMIN).contentType("application/json")
                .body("{\"slug\": \"typed\", \"name\": \"X\", \"currency\": \"EUR\", \"cart_ttl_seconds\": \"soon\"}")
                .post("/api/v1/events")
                .then().statusCode(400).body("errors[0].field", equalTo("cart_ttl_seconds"));
    }

    @Test
    void shouldPatchOnlyWithTheCurrentVersion() {
        String patched = "patched-" + System.nanoTime();
        given().header("Authorization", ADMIN).contentType("application/json")
                .body(Map.of("slug", patched, "name", "Before", "currency", "EUR"))
                .post("/api/v1/events").then().statusCode(201);

        given().header("Authorization", ADMIN).contentType("application/json").body(Map.of("name", "After"))
                .patch("/api/v1/events/{event}", patched)
                .then().statusCode(428).contentType("application/problem+json")
                .body("code", equalTo("precondition_required"));
        given().header("Authorization", ADMIN).header("If-Match", "\"0\"").contentType("application/json")
                .body(Map.of("name", "After", "cart_ttl_seconds", 600))
                .patch("/api/v1/events/{event}", patched)
                .then().statusCode(200).header("ETag", "\"1\"")
                .body("name", equalTo("After")).body("cart_ttl_seconds", equalTo(600));
        given().header("Authorization", ADMIN).header("If-Match", "\"0\"").contentType("application/json")
                .body(Map.of("name", "Stale"))
                .patch("/api/v1/events/{event}", patched)
                .then().statusCode(412).body("code", equalTo("version_conflict"));
        given().header("Authorization", ADMIN).get("/api/v1/events/{event}", patched)
                .then().statusCode(200).body("name", equalTo("After")).header("ETag", "\"1\"");
    }

    /** Carts use the event from a short cache; a change through this replica must not wait for it to expire. */
    @Test
    void shouldGiveNewCartsTheCartTtlOfAChangeAtOnce() {
        assertThat(secondsUntilExpiry(newCartExpiry()), closeTo(1800, 60));

        given().header("Authorization", ADMIN).header("If-Match", "\"0\"").contentType("application/json")
                .body(Map.of("cart_ttl_seconds", 600)).patch("/api/v1/events/{event}", slug)
                .then().statusCode(200);

        assertThat(secondsUntilExpiry(newCartExpiry()), closeTo(600, 60));
    }

    private String newCartExpiry() {
        return storefront().post("/api/v1/events/{event}/carts", slug).then().statusCode(201).extract().path("expires");
    }

    private static double secondsUntilExpiry(String expires) {
        return Duration.between(Instant.now(), Instant.parse(expires)).toSeconds();
    }

    @Test
    void shouldNotGetUnknownEvent() {
        given().header("Authorization", ADMIN)
                .get("/api/v1/events/{event}", "no-such-event")
                .then().statusCode(404)
                .contentType("application/problem+json")
                .body("code", equalTo("not_found"));
    }

    @Test
    void shouldRefuseRequestsWithoutAValidToken() {
        given().get("/api/v1/events/{event}", slug)
                .then().statusCode(401).contentType("application/problem+json").body("code", equalTo("unauthorized"));
        given().header("Authorization", "Bearer test-admin-token-but-longer")
                .get("/api/v1/events/{event}", slug)
                .then().statusCode(401).body("code", equalTo("unauthorized"));
    }

    @Test
    void shouldRefuseAdminRequestsWithAStorefrontToken() {
        given().header("Authorization", STOREFRONT)
                .get("/api/v1/events/{event}", slug)
                .then().statusCode(403).contentType("application/problem+json").body("code", equalTo("forbidden"));
    }
}

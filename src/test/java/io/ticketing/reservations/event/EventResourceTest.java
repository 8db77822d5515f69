package io.ticketing.reservations.event;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class EventResourceTest {

    static final String ADMIN = "Bearer test-admin-token";
    static final String STOREFRONT = "Bearer test-storefront-token";

    @Inject
    Fixtures fixtures;

    @BeforeEach
    void createEvent() {
        fixtures.ensureEvent("event-resource-test");
    }

    @Test
    void shouldGetAnEventWithItsVersionAsETag() {
        given().header("Authorization", ADMIN)
                .get("/api/v1/events/{event}", "event-resource-test")
                .then().statusCode(200)
                .header("ETag", "\"0\"")
                .body("slug", equalTo("event-resource-test"))
                .body("currency", equalTo("EUR"))
                .body("cart_ttl_seconds", equalTo(1800))
                .body("payment_term_seconds", equalTo(1_209_600));
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
        given().get("/api/v1/events/{event}", "event-resource-test")
                .then().statusCode(401).contentType("application/problem+json").body("code", equalTo("unauthorized"));
        given().header("Authorization", "Bearer test-admin-token-but-longer")
                .get("/api/v1/events/{event}", "event-resource-test")
                .then().statusCode(401).body("code", equalTo("unauthorized"));
    }

    @Test
    void shouldRefuseAdminRequestsWithAStorefrontToken() {
        given().header("Authorization", STOREFRONT)
                .get("/api/v1/events/{event}", "event-resource-test")
                .then().statusCode(403).contentType("application/problem+json").body("code", equalTo("forbidden"));
    }

    @ApplicationScoped
    static class Fixtures {
        @Transactional
        void ensureEvent(String slug) {
            if (Event.findBySlug(slug).isEmpty()) {
                Event event = new Event();
                event.slug = slug;
                event.name = "Test event";
                event.currency = "EUR";
                event.persist();
            }
        }
    }
}

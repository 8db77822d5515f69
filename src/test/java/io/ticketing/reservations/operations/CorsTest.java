package io.ticketing.reservations.operations;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** Browsers may call the API only from the configured origins (the test profile allows https://shop.example). */
@QuarkusTest
class CorsTest {

    @Test
    void shouldAllowAConfiguredOriginToSendTheStorefrontHeaders() {
        given().header("Origin", "https://shop.example").header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization,content-type,idempotency-key")
                .options("/api/v1/events/demo/carts")
                .then().statusCode(200)
                .header("Access-Control-Allow-Origin", equalTo("https://shop.example"))
                .header("Access-Control-Allow-Headers", containsString("Idempotency-Key"));
    }

    @Test
    void shouldNotAllowAnyOtherOrigin() {
        given().header("Origin", "https://evil.example").header("Access-Control-Request-Method", "POST")
                .options("/api/v1/events/demo/carts")
                .then().header("Access-Control-Allow-Origin", nullValue());
        given().header("Origin", "https://evil.example").get("/api/v1/events/demo/availability")
                .then().statusCode(403).header("Access-Control-Allow-Origin", nullValue());
    }
}

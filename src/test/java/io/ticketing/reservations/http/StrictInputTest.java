package io.ticketing.reservations.http;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Sql;

@QuarkusTest
class StrictInputTest {

    @Inject
    Sql sql;

    private static final String PROBLEM = "application/problem+json";

    @Test
    void shouldRefuseLenientlyTypedBodiesAndWriteNothing() {
        String event = newEvent("strict");
        long item = newItem(event, "Ticket", "10.00");
        newQuota(event, 10, List.of(item));
        String cart = newCart(event);
        long before = sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1", cart);
        for (String body : List.of(
                "{\"positions\":[{\"item_id\":" + item + ",\"quantity\":1.5}]}",
                "{\"positions\":[{\"item_id\":" + item + ",\"quantity\":\"5\"}]}",
                "{\"positions\":[{\"item_id\":\"" + item + "\"}]}",
                "{\"positions\":[{\"item_id\":" + item + "}]} trailing",
                "{\"positions\":[{\"item_id\":" + item + "}]}{}",
                "{\"positions\":[{\"item_id\":" + item + ",\"item_id\":" + item + "}]}",
                "{\"positions\":[{\"item_id\":" + item + ",\"voucher_code\":\"A\\u0000B\"}]}")) {
            storefront().body(body).post("/api/v1/events/{event}/carts/{cart}/positions", event, cart)
                    .then().statusCode(400).contentType(PROBLEM).body("code", equalTo("validation_failed"));
        }
        admin().body("{\"name\":\"X\",\"price\":12}").post("/api/v1/events/{event}/items", event)
                .then().statusCode(400).body("errors[0].field", equalTo("price"));
        admin().body("{\"name\":\"X\",\"price\":\"1\",\"active\":1}").post("/api/v1/events/{event}/items", event)
                .then().statusCode(400).body("errors[0].field", equalTo("active"));
        for (String validUntil : List.of("\"\"", "\"+999999999-12-31T23:59:59Z\"", "1700000000", "\"tomorrow\"")) {
            admin().body("{\"code\":\"V1\",\"valid_until\":" + validUntil + "}")
                    .post("/api/v1/events/{event}/vouchers", event)
                    .then().statusCode(400).contentType(PROBLEM).body("errors[0].field", equalTo("valid_until"));
        }
        assertThatNothingWasWritten(event, cart, before);
    }

    @Test
    void shouldRefuseNulInPathParametersAndQueries() {
        String event = newEvent("nul-path");
        storefront().urlEncodingEnabled(false).get("/api/v1/events/" + event + "/carts/abc%00def")
                .then().statusCode(400).contentType(PROBLEM).body("code", equalTo("validation_failed"));
        storefront().urlEncodingEnabled(false).get("/api/v1/events/" + event + "%00/availability")
                .then().statusCode(400).contentType(PROBLEM).body("code", equalTo("validation_failed"));
        admin().urlEncodingEnabled(false).get("/api/v1/events/" + event + "/seats?available=%00")
                .then().statusCode(400).contentType(PROBLEM).body("code", equalTo("validation_failed"));
    }

    @Test
    void shouldAnswerUnknownEventsWithAPathThatNeedsEncodingWith404() {
        admin().body("{\"seats\":[{\"guid\":\"a\",\"name\":\"A\",\"item_id\":1}]}")
                .urlEncodingEnabled(false).post("/api/v1/events/a%20b/seats").then().statusCode(404)
                .contentType(PROBLEM);
    }

    @Test
    void shouldAnswerOnlyJsonWhateverTheClientAccepts() {
        String event = newEvent("accept");
        for (String accept : List.of("text/html", "application/xml", "text/plain")) {
            admin().accept(accept).get("/api/v1/events/{event}", event)
                    .then().statusCode(406).contentType(PROBLEM).body("code", equalTo("not_acceptable"));
        }
        admin().accept("application/json, text/html;q=0.5").get("/api/v1/events/{event}", event)
                .then().statusCode(200).contentType(startsWith("application/json"));
    }

    @Test
    void shouldChallengeForABearerTokenOn401() {
        given().get("/api/v1/events/whatever").then().statusCode(401).header("WWW-Authenticate", startsWith("Bearer"))
                .contentType(PROBLEM).body("code", equalTo("unauthorized"));
    }

    @Test
    void shouldAnswerTheHttpLayersOwnRefusalsAsProblems() {
        String event = newEvent("limits");
        admin().body("{\"name\":\"" + "x".repeat(11 * 1024 * 1024) + "\"}").patch("/api/v1/events/{event}", event)
                .then().statusCode(413).contentType(PROBLEM).body("code", equalTo("payload_too_large"));
        admin().get("/api/v1/events/" + "x".repeat(20_000))
                .then().statusCode(414).contentType(PROBLEM).body("code", equalTo("uri_too_long"));
        admin().header("X-Big", "y".repeat(40_000)).get("/api/v1/events/{event}", event)
                .then().statusCode(431).contentType(PROBLEM).body("code", equalTo("headers_too_large"));
        admin().contentType("text/plain").body("hello").post("/api/v1/events")
                .then().statusCode(415).contentType(PROBLEM).body("code", equalTo("unsupported_media_type"));
    }

    private void assertThatNothingWasWritten(String event, String cart, long positionsBefore) {
        org.assertj.core.api.Assertions
                .assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1", cart))
                .isEqualTo(positionsBefore);
        org.assertj.core.api.Assertions.assertThat(sql.number(
                "SELECT count(*) FROM vouchers v JOIN events e ON e.id = v.event_id WHERE e.slug = ?1", event))
                .isZero();
        org.assertj.core.api.Assertions.assertThat(sql.number(
                "SELECT count(*) FROM items i JOIN events e ON e.id = i.event_id WHERE e.slug = ?1", event))
                .isEqualTo(1);
    }
}

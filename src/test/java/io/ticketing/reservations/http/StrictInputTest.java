package io.ticketing.reservations.http;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Api.STOREFRONT;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.EncoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.ticketing.reservations.support.Sql;

@QuarkusTest
class StrictInputTest {

    @Inject
    Sql sql;

    @TestHTTPResource("/")
    URI root;

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

    @Test
    void shouldRefuseBodiesThatAreNotJsonWith415OnEveryOperationAndWriteNothing() {
        String event = newEvent("media-type");
        long item = newItem(event, "Ticket", "10.00");
        newQuota(event, 10, List.of(item));
        String cart = newCart(event);
        String carts = "SELECT count(*) FROM carts c JOIN events e ON e.id = c.event_id WHERE e.slug = ?1";
        long cartsBefore = sql.number(carts, event);
        for (String type : List.of("text/plain", "application/x-www-form-urlencoded", "application/octet-stream",
                "application/xml", "text/csv")) {
            as(storefront(), type).body("{\"buyer\":\"b1\"}").post("/api/v1/events/{event}/carts", event)
                    .then().statusCode(415).contentType(PROBLEM).body("code", equalTo("unsupported_media_type"));
            as(storefront(), type).body("{\"positions\":[{\"item_id\":" + item + "}]}")
                    .post("/api/v1/events/{event}/carts/{cart}/positions", event, cart)
                    .then().statusCode(415).contentType(PROBLEM).body("code", equalTo("unsupported_media_type"));
            as(admin(), type).header("If-Match", "\"0\"").body("{\"name\":\"Renamed\"}")
                    .patch("/api/v1/events/{event}", event)
                    .then().statusCode(415).contentType(PROBLEM).body("code", equalTo("unsupported_media_type"));
        }
        // A NUL byte in a text body used to reach PostgreSQL as the buyer, and fail there with a 500.
        storefront().contentType("text/plain").body("b\u0000uyer")
                .post("/api/v1/events/{event}/carts", event)
                .then().statusCode(415).contentType(PROBLEM).body("code", equalTo("unsupported_media_type"));
        assertThat(sql.number(carts, event)).isEqualTo(cartsBefore);
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1", cart)).isZero();
        admin().get("/api/v1/events/{event}", event).then().statusCode(200).body("name", equalTo("media-type"));
        admin().contentType("application/json; charset=utf-8").body("{\"buyer\":\"b2\"}")
                .post("/api/v1/events/{event}/carts", event).then().statusCode(201);
    }

    @Test
    void shouldRefuseLoneSurrogatesInStringsAndKeepPairs() {
        String event = newEvent("surrogates");
        String carts = "SELECT count(*) FROM carts c JOIN events e ON e.id = c.event_id WHERE e.slug = ?1";
        for (String buyer : List.of("\\ud800", "a\\udc00", "\\udc00\\ud800", "x\\ud83d")) {
            storefront().body("{\"buyer\":\"" + buyer + "\"}").post("/api/v1/events/{event}/carts", event)
                    .then().statusCode(400).contentType(PROBLEM).body("code", equalTo("validation_failed"))
                    .body("errors[0].field", equalTo("buyer"));
        }
        assertThat(sql.number(carts, event)).isZero();
        String cart = admin().body("{\"buyer\":\"\\ud83c\\udfab\"}").post("/api/v1/events/{event}/carts", event)
                .then().statusCode(201).extract().path("id");
        assertThat(sql.rows("SELECT buyer FROM carts WHERE id = ?1", cart).get(0)).isEqualTo("\ud83c\udfab");
    }

    @Test
    void shouldRefuseDotSegmentsInPathsAndChangeNothing() throws Exception {
        String event = newEvent("dots");
        long item = newItem(event, "Ticket", "10.00");
        newQuota(event, 10, List.of(item));
        String cart = cartWith(event, Map.of("item_id", item));
        String positions = "/api/v1/events/" + event + "/carts/" + cart + "/positions/";
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (String path : List.of(positions + "%2e%2e", positions + "%2E%2E", positions + "..",
                positions + ".%2e", positions + ".", positions + "%2e",
                "/api/v1/events/" + event + "/carts/" + cart + "/positions/%2e%2e/%2e%2e/" + cart,
                "/api/v1/events/other/%2e%2e/" + event + "/carts/" + cart)) {
            // Sent as written: HTTP clients such as RestAssured's remove dot segments before sending.
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create(root.getScheme() + "://" + root.getAuthority() + path)).DELETE()
                    .header("Authorization", STOREFRONT).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as("%s: %s", path, response.body()).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith(PROBLEM));
            assertThat(response.body()).contains("\"validation_failed\"");
        }
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart).then().statusCode(200)
                .body("positions", hasSize(1));
    }

    @Test
    void shouldNameWhatIsWrongWithMalformedJsonInErrors() {
        String event = newEvent("malformed");
        String cart = newCart(event);
        for (String body : List.of("{", "{\"positions\":", "[1,", "not json", "{'positions':[]}", "{\"a\" 1}",
                "\"\\ud800\"")) {
            storefront().body(body).post("/api/v1/events/{event}/carts/{cart}/positions", event, cart)
                    .then().statusCode(400).contentType(PROBLEM).body("code", equalTo("validation_failed"))
                    .body("errors", hasSize(1)).body("errors[0].field", not(emptyOrNullString()))
                    .body("errors[0].message", not(emptyOrNullString()));
        }
    }

    /** A body sent as {@code type}, as is: RestAssured would otherwise encode it by the type, or refuse to. */
    private static RequestSpecification as(RequestSpecification request, String type) {
        return request.config(RestAssuredConfig.config().encoderConfig(
                EncoderConfig.encoderConfig().encodeContentTypeAs(type, ContentType.TEXT))).contentType(type);
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

package io.ticketing.reservations.availability;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.ticketing.reservations.http.RequestLog;
import io.ticketing.reservations.support.Eventually;

/** The availability stream (contract section 8), read as a browser's EventSource reads it. */
@QuarkusTest
class AvailabilityStreamTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "test-storefront-token";
    /** Put after the last event of a stream the service ended. */
    private static final JsonNode ENDED = JSON.createObjectNode().put("stream", "ended");

    @TestHTTPResource("/")
    URL base;

    /** The {@code data} of each server-sent event, parsed, as it arrives. */
    private BlockingQueue<JsonNode> subscribe(String event, String query) throws Exception {
        HttpResponse<java.io.InputStream> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(base + "api/v1/events/" + event + "/availability/stream" + query))
                .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        assertThat(response.headers().firstValue("X-Accel-Buffering")).as("no proxy buffers it").contains("no");
        assertThat(response.headers().firstValue("Cache-Control")).contains("no-cache");
        BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (line.startsWith("data:")) {
                        events.add(JSON.readTree(line.substring(5).trim()));
                    }
                }
                events.add(ENDED);
            } catch (Exception closed) {
                // The test is over.
            }
        });
        reader.setDaemon(true);
        reader.start();
        return events;
    }

    private static JsonNode next(BlockingQueue<JsonNode> events, Duration within) throws InterruptedException {
        JsonNode event = events.poll(within.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(event).as("a server-sent event within " + within).isNotNull();
        return event;
    }

    private static boolean available(JsonNode availability, long item) {
        for (JsonNode entry : availability.path("items")) {
            if (entry.path("item_id").asLong() == item) {
                return entry.path("available").asBoolean();
            }
        }
        throw new AssertionError("item " + item + " not in " + availability);
    }

    /**
     * While every moment sells another ticket, a stream sends one reading a round: about one each
     * {@code availability.stream-interval} (500 ms). Quarkus' scheduler, which read it before, runs no interval below
     * a second more often than once a second: 4 or 5 readings in these 4 s.
     */
    @Test
    void aStreamReadsAsOftenAsItsIntervalSays() throws Exception {
        String event = newEvent("stream-interval");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10_000, List.of(item));
        BlockingQueue<JsonNode> events = subscribe(event, "?access_token=" + TOKEN);
        next(events, Duration.ofSeconds(5));
        Duration window = Duration.ofSeconds(4);
        long end = System.nanoTime() + window.toNanos();
        String cart = newCart(event);
        int sales = 0;
        while (System.nanoTime() < end) {
            addToCart(event, cart, Map.of("item_id", item)).then().statusCode(201);
            sales++;
        }
        int readings = events.size();
        System.out.printf("availability stream: %d readings in %s while %d tickets sold%n", readings, window, sales);
        assertThat(sales).as("a change for every round to read").isGreaterThanOrEqualTo(2 * readings);
        assertThat(readings).as("readings in %s at a 500 ms interval", window).isGreaterThanOrEqualTo(6);
    }

    @Test
    void aSubscriberSeesASellOutAndACancelWithinASecond() throws Exception {
        String event = newEvent("stream");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 1, List.of(item));
        BlockingQueue<JsonNode> events = subscribe(event, "?access_token=" + TOKEN);
        JsonNode first = next(events, Duration.ofSeconds(5));
        assertThat(first).isEqualTo(JSON.readTree(storefront()
                .get("/api/v1/events/{event}/availability", event).then().statusCode(200).extract().asString()));
        assertThat(available(first, item)).isTrue();

        String code = checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201).extract()
                .path("code");
        assertThat(available(next(events, Duration.ofSeconds(1)), item)).as("sold out").isFalse();

        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, code).then().statusCode(200);
        assertThat(available(next(events, Duration.ofSeconds(1)), item)).as("back after the cancel").isTrue();
    }

    @Test
    void theTokenGoesInTheHeaderOrTheQueryOfTheStreamOnly() throws Exception {
        String event = newEvent("stream-auth");
        HttpClient client = HttpClient.newHttpClient();
        URI stream = URI.create(base + "api/v1/events/" + event + "/availability/stream");
        assertThat(client.send(HttpRequest.newBuilder(stream).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode()).isEqualTo(401);
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(new SimpleFormatter().formatMessage(record));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        List<Logger> loggers = List.of(Logger.getLogger(""), Logger.getLogger(RequestLog.class.getName()));
        loggers.forEach(logger -> logger.addHandler(capture));
        try {
            assertThat(client.send(HttpRequest.newBuilder(URI.create(stream + "?access_token=wrong-secret-7")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(401);
            Eventually.within(Duration.ofSeconds(5), "the request logged",
                    () -> logged.stream().anyMatch(line -> line.contains("/availability/stream 401")));
            assertThat(logged).as("log lines").noneMatch(line -> line.contains("wrong-secret-7"));
        } finally {
            loggers.forEach(logger -> logger.removeHandler(capture));
        }
        next(subscribe(event, "?access_token=" + TOKEN), Duration.ofSeconds(5));
        assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "api/v1/events/" + event
                + "/availability?access_token=" + TOKEN)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode()).as("only the stream takes a token in the URL").isEqualTo(401);
    }

    /** Contract section 11: a revoked token is refused everywhere, also where it was let in before. */
    @Test
    void theStreamOfATokenRevokedWhileItIsOpenEndsAtItsNextReading() throws Exception {
        String organizer = "streams-" + Long.toString(System.nanoTime(), 36);
        admin().body(Map.of("slug", organizer, "name", "Streams")).post("/api/v1/organizers").then().statusCode(201);
        JsonPath token = admin().body(Map.of("name", "shop", "scope", "storefront"))
                .post("/api/v1/organizers/{organizer}/tokens", organizer).then().statusCode(201).extract().jsonPath();
        String event = "revoked-" + Long.toString(System.nanoTime(), 36);
        admin().body(Map.of("slug", event, "name", "Revoked", "currency", "EUR", "organizer", organizer))
                .post("/api/v1/events").then().statusCode(201);
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        BlockingQueue<JsonNode> events = subscribe(event, "?access_token=" + token.getString("token"));
        assertThat(available(next(events, Duration.ofSeconds(5)), item)).isTrue();

        admin().delete("/api/v1/organizers/{organizer}/tokens/{token}", organizer, token.getLong("id")).then()
                .statusCode(204);
        cartWith(event, Map.of("item_id", item));
        assertThat(next(events, Duration.ofSeconds(5))).as("no reading after the revocation").isEqualTo(ENDED);
    }
}

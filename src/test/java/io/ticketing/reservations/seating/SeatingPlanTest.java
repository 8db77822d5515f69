package io.ticketing.reservations.seating;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.bestAvailable;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;
import io.ticketing.reservations.support.Venue;

/**
 * Seating plans in pretix's format (contract section 13): imported as seats, drawn with live colours, replaced as one
 * change that no seat in use survives differently, and the same on every date of an event with dates.
 */
@QuarkusTest
class SeatingPlanTest {

    static final String PLAN = "/api/v1/events/{event}/seating_plan";

    @Inject
    Sql sql;

    @TestHTTPResource("/")
    URI base;

    /** Stalls of 10 rows of 30 and a balcony of 4 rows of 25: 400 seats in two zones and two categories. */
    static Venue hall() {
        return Venue.named("Town hall").category("Stalls", "#7f4a91").category("Balcony", "#5f9cd4")
                .zone("Stalls", "Stalls", List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10"), 30, 0, 100)
                .zone("Balcony", "Balcony", List.of("1", "2", "3", "4"), 25, 50, 600);
    }

    @Test
    void aPlanOfZonesRowsAndSeatsBecomesSeatsDrawnWhereThePlanPutsThem() {
        String event = newEvent("plan");
        long stalls = newSeatedItem(event, "Stalls", "40");
        long balcony = newSeatedItem(event, "Balcony", "25");
        newQuota(event, 1000, List.of(stalls, balcony));
        JsonPath put = admin().body(hall().mappedTo(Map.of("Stalls", stalls, "Balcony", balcony)))
                .put(PLAN, event).then().statusCode(200).body("seats", hasSize(400))
                .body("plan.name", equalTo("Town hall")).body("categories.Balcony", equalTo((int) balcony))
                .extract().jsonPath();
        assertThat(put.getBoolean("seats.every { it.free }")).isTrue();

        JsonPath drawn = storefront().get(PLAN, event).then().statusCode(200).extract().jsonPath();
        Map<String, Object> balconySeat = drawn.getMap("seats.find { it.guid == 'Balcony-3-12' }");
        // The zone at (50, 600), its third row at (10, 80), the twelfth seat at (330, 0).
        assertThat(balconySeat).containsEntry("x", 390.0f).containsEntry("y", 680.0f)
                .containsEntry("category", "Balcony").containsEntry("free", true);
        assertThat(drawn.getList("seats.guid").get(0)).isEqualTo("Stalls-1-1");

        admin().get("/api/v1/events/{event}/seats/{guid}", event, "Balcony-3-12").then().statusCode(200)
                .body("name", equalTo("Balcony, row 3, seat 12")).body("section", equalTo("Balcony"))
                .body("row", equalTo("3")).body("number", equalTo(12)).body("item_id", equalTo((int) balcony));
        String cart = newCart(event);
        bestAvailable(event, cart, balcony, 3).then().statusCode(201);
        addToCart(event, newCart(event), Map.of("item_id", stalls, "seat_guid", "Stalls-10-30")).then()
                .statusCode(201);
        storefront().get(PLAN, event).then().statusCode(200)
                .body("seats.findAll { !it.free }.guid", hasSize(4))
                .body("seats.findAll { !it.free }.guid", hasItem("Stalls-10-30"));
    }

    @Test
    void aClientThatAcceptsGzipGetsThePlanCompressedAndTheSameJson() throws Exception {
        String event = newEvent("plan-gzip");
        hallIn(event);
        HttpResponse<byte[]> gzip = plan(event, "gzip, deflate");
        HttpResponse<byte[]> plain = plan(event, "gzip;q=0, identity");
        assertThat(gzip.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        try (InputStream unzipped = new GZIPInputStream(new java.io.ByteArrayInputStream(gzip.body()))) {
            ObjectMapper json = new ObjectMapper();
            assertThat(json.readTree(unzipped)).isEqualTo(json.readTree(plain.body()));
        }
        assertThat(gzip.body().length).as("a tenth or less").isLessThan(plain.body().length / 10);
    }

    private HttpResponse<byte[]> plan(String event, String acceptEncoding) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(base.resolve("api/v1/events/" + event
                + "/seating_plan")).header("Authorization", "Bearer test-storefront-token")
                .header("Accept-Encoding", acceptEncoding).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void pretixsOwnTestPlanLoadsUnchanged() throws IOException {
        String event = newEvent("plan-pretix");
        long stalls = newSeatedItem(event, "Stalls", "40");
        newQuota(event, 1000, List.of(stalls));
        Map<String, Object> body = new HashMap<>();
        body.put("plan", new ObjectMapper().readValue(resource("/seating/pretix-grosser-saal.json"), Map.class));
        body.put("categories", Map.of("Stalls", stalls));
        admin().body(body).put(PLAN, event).then().statusCode(200).body("seats.guid", contains("0-0", "0-1", "0-2"))
                .body("seats.x", contains(0.0f, 33.0f, 66.0f));
        admin().get("/api/v1/events/{event}/seats/{guid}", event, "0-1").then().statusCode(200)
                .body("name", equalTo("Main Area, row 0, seat 0-1")).body("number", equalTo(null));
    }

    @Test
    void aPlanThatBreaksTheFormatOrItsOwnRulesIsRefusedWithTheJsonPathOfEachProblem() {
        String event = newEvent("plan-bad");
        long stalls = newSeatedItem(event, "Stalls", "40");
        long unseated = newItem(event, "Standing", "10");
        Map<String, Object> plan = new HashMap<>(hall().plan());
        plan.remove("size");
        admin().body(Map.of("plan", plan, "categories", Map.of("Stalls", stalls))).put(PLAN, event).then()
                .statusCode(400).contentType("application/problem+json").body("code", equalTo("validation_failed"))
                .body("errors.field", hasItem("plan.size"));

        Map<String, Object> duplicate = Venue.named("Twice").category("Stalls", "red")
                .zone("A", "Stalls", List.of("1"), 2, 0, 0).zone("A", "Stalls", List.of("1"), 2, 0, 100).plan();
        admin().body(Map.of("plan", duplicate, "categories", Map.of("Stalls", stalls))).put(PLAN, event).then()
                .statusCode(400).body("errors.field", hasItem("plan.zones[1].rows[0].seats[0].seat_guid"));

        Map<String, Object> undefined = Venue.named("Undefined").category("Stalls", "red")
                .zone("A", "Gallery", List.of("1"), 2, 0, 0).plan();
        admin().body(Map.of("plan", undefined, "categories", Map.of("Stalls", stalls))).put(PLAN, event).then()
                .statusCode(400).body("errors.field", hasItem("plan.zones[0].rows[0].seats[0].category"));

        admin().body(hall().mappedTo(Map.of("Stalls", stalls))).put(PLAN, event).then().statusCode(400)
                .body("errors.field", contains("categories.Balcony"));
        admin().body(hall().mappedTo(Map.of("Stalls", stalls, "Balcony", unseated))).put(PLAN, event).then()
                .statusCode(400).body("errors.field", contains("categories.Balcony"));

        storefront().get(PLAN, event).then().statusCode(404);
        assertThat(sql.number("SELECT count(*) FROM seats s JOIN events e ON e.id = s.event_id WHERE e.slug = ?1",
                event)).as("nothing made").isZero();
    }

    /** What the schema allows but a seat cannot be (a category's name of no or too many characters): 400, never 500. */
    @Test
    void aCategoryNameNoSeatCanCarryIsRefusedWithItsPath() {
        String event = newEvent("plan-category-name");
        long stalls = newSeatedItem(event, "Stalls", "40");
        for (String name : List.of("", "x".repeat(201))) {
            Map<String, Object> plan = Venue.named("Names").category(name, "red")
                    .zone("A", name, List.of("1"), 2, 0, 0).plan();
            Map<String, Object> categories = new HashMap<>();
            categories.put(name, stalls);
            admin().body(Map.of("plan", plan, "categories", categories)).put(PLAN, event).then().statusCode(400)
                    .contentType("application/problem+json").body("errors.field", hasItem("plan.categories[0].name"));
        }
        assertThat(seats(event)).isZero();
    }

    /**
     * An item a plan maps a category to is in use, as an item with seats is: deleting it would leave the plan seating
     * every new date with an item that is gone.
     */
    @Test
    void anItemThePlanMapsIsInUseAndEveryNewDateGetsThePlansSeats() {
        String event = newEvent("plan-mapped-item");
        long only = newDate(event, 1);
        long stalls = newSeatedItem(event, "Stalls", "40");
        long balcony = newSeatedItem(event, "Balcony", "25");
        newQuota(event, 1000, List.of(stalls, balcony));
        admin().body(hall().mappedTo(Map.of("Stalls", stalls, "Balcony", balcony))).put(PLAN, event).then()
                .statusCode(200);
        admin().delete("/api/v1/events/{event}/dates/{date}", event, only).then().statusCode(204);
        admin().delete("/api/v1/events/{event}/items/{item}", event, balcony).then().statusCode(409)
                .body("code", equalTo("in_use"));
        long next = newDate(event, 2);
        assertThat(free(event, next, "Balcony-1-1")).isTrue();
        assertThat(seats(event)).isEqualTo(400);
    }

    /** A plan seat read alone shows where the plan draws it, as the plan and the seat list do. */
    @Test
    void aPlanSeatReadAloneShowsItsPlace() {
        String event = newEvent("plan-seat-place");
        long stalls = newSeatedItem(event, "Stalls", "40");
        long balcony = newSeatedItem(event, "Balcony", "25");
        admin().body(hall().mappedTo(Map.of("Stalls", stalls, "Balcony", balcony))).put(PLAN, event).then()
                .statusCode(200);
        admin().get("/api/v1/events/{event}/seats/{guid}", event, "Balcony-4-25").then().statusCode(200)
                .body("x", equalTo(780.0f)).body("y", equalTo(720.0f));
    }

    @Test
    void aReplacedPlanKeepsEverySeatInUseAndRefusesWholeWhereOneWouldLeaveOrChangeItem() {
        String event = newEvent("plan-replace");
        long stalls = newSeatedItem(event, "Stalls", "40");
        long balcony = newSeatedItem(event, "Balcony", "25");
        newQuota(event, 1000, List.of(stalls, balcony));
        Map<String, Long> items = Map.of("Stalls", stalls, "Balcony", balcony);
        admin().body(hall().mappedTo(items)).put(PLAN, event).then().statusCode(200);
        String held = cartWith(event, Map.of("item_id", balcony, "seat_guid", "Balcony-4-25"));
        checkout(event, cartWith(event, Map.of("item_id", stalls, "seat_guid", "Stalls-1-1"))).then().statusCode(201);
        newVoucher(event, Map.of("code", "SEAT-GUEST", "seat_guid", "Stalls-10-30"));

        // A smaller balcony drops the held seat; stalls moved to the balcony's price level move a sold one.
        Venue smaller = Venue.named("Town hall").category("Stalls", "#7f4a91").category("Balcony", "#5f9cd4")
                .zone("Stalls", "Stalls", List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10"), 30, 0, 100)
                .zone("Balcony", "Balcony", List.of("1", "2", "3", "4"), 20, 50, 600);
        admin().body(smaller.mappedTo(items)).put(PLAN, event).then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo("seat_in_use"))
                .body("seats", contains("Balcony-4-25"));
        admin().body(hall().mappedTo(Map.of("Stalls", balcony, "Balcony", balcony))).put(PLAN, event).then()
                .statusCode(409).body("seats", contains("Stalls-1-1", "Stalls-10-30"));
        Venue fewerRows = Venue.named("Town hall").category("Stalls", "#7f4a91").category("Balcony", "#5f9cd4")
                .zone("Stalls", "Stalls", List.of("1", "2", "3", "4", "5", "6", "7", "8", "9"), 30, 0, 100)
                .zone("Balcony", "Balcony", List.of("1", "2", "3", "4"), 25, 50, 600);
        admin().body(fewerRows.mappedTo(items)).put(PLAN, event).then().statusCode(409)
                .body("seats", contains("Stalls-10-30"));
        assertThat(seats(event)).as("nothing changed").isEqualTo(400);

        // Moved and grown, every seat in use kept: the change goes through, the holds and the sale stay.
        Venue moved = Venue.named("Town hall, new stage").category("Stalls", "#7f4a91").category("Balcony", "#5f9cd4")
                .zone("Stalls", "Stalls", List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"), 30, 0, 150)
                .zone("Balcony", "Balcony", List.of("1", "2", "3", "4"), 25, 50, 700);
        admin().body(moved.mappedTo(items)).put(PLAN, event).then().statusCode(200).body("seats", hasSize(430))
                .body("plan.name", equalTo("Town hall, new stage"));
        assertThat(seats(event)).isEqualTo(430);
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, held).then().statusCode(200)
                .body("positions[0].seat_guid", equalTo("Balcony-4-25"));
        JsonPath drawn = storefront().get(PLAN, event).then().statusCode(200).extract().jsonPath();
        assertThat(drawn.getMap("seats.find { it.guid == 'Balcony-4-25' }")).containsEntry("free", false)
                .containsEntry("y", 820.0f);
        Oracle.assertNeverOversold(sql, event);

        admin().delete(PLAN, event).then().statusCode(409).body("code", equalTo("seat_in_use"));
    }

    @Test
    void inAnEventWithDatesEachDateHasThePlansSeatsAndANewDateGetsThemToo() {
        String event = newEvent("plan-dates");
        long first = newDate(event, 1);
        long second = newDate(event, 2);
        long stalls = newSeatedItem(event, "Stalls", "40");
        long balcony = newSeatedItem(event, "Balcony", "25");
        newQuota(event, 1000, List.of(stalls, balcony));
        admin().body(hall().mappedTo(Map.of("Stalls", stalls, "Balcony", balcony))).put(PLAN, event).then()
                .statusCode(200).body("seats", hasSize(400));
        assertThat(seats(event)).isEqualTo(800);
        storefront().get(PLAN, event).then().statusCode(400).body("errors.field", contains("date_id"));

        addToCart(event, newCart(event), Map.of("item_id", stalls, "seat_guid", "Stalls-5-5", "date_id", first))
                .then().statusCode(201);
        assertThat(free(event, first, "Stalls-5-5")).isFalse();
        assertThat(free(event, second, "Stalls-5-5")).isTrue();

        long third = newDate(event, 3);
        assertThat(seats(event)).isEqualTo(1200);
        assertThat(free(event, third, "Balcony-1-1")).isTrue();
    }

    @Test
    void deletingAPlanNoOneUsesDeletesItsSeatsAndAHoldThatRanOutUsesItsSeatUntilItsCartIsGone() {
        String event = newEvent("plan-delete");
        long stalls = hallIn(event);
        String cart = cartWith(event, Map.of("item_id", stalls, "seat_guid", "Stalls-2-2"));
        sql.expireCart(cart);
        admin().delete(PLAN, event).then().statusCode(409).body("seats", contains("Stalls-2-2"));
        storefront().delete("/api/v1/events/{event}/carts/{cart}", event, cart).then().statusCode(204);
        admin().delete(PLAN, event).then().statusCode(204);
        assertThat(seats(event)).isZero();
        storefront().get(PLAN, event).then().statusCode(404);
        admin().delete(PLAN, event).then().statusCode(404);
    }

    /** The hall's plan imported into {@code event}, its Stalls and Balcony each an item; answers the Stalls' item. */
    private static long hallIn(String event) {
        long stalls = newSeatedItem(event, "Stalls", "40");
        long balcony = newSeatedItem(event, "Balcony", "25");
        newQuota(event, 1000, List.of(stalls, balcony));
        admin().body(hall().mappedTo(Map.of("Stalls", stalls, "Balcony", balcony))).put(PLAN, event).then()
                .statusCode(200);
        return stalls;
    }

    private boolean free(String event, long date, String guid) {
        return storefront().queryParam("date_id", date).get(PLAN, event).then().statusCode(200).extract().jsonPath()
                .getBoolean("seats.find { it.guid == '" + guid + "' }.free");
    }

    private long seats(String event) {
        return sql.number("SELECT count(*) FROM seats s JOIN events e ON e.id = s.event_id WHERE e.slug = ?1", event);
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SeatingPlanTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

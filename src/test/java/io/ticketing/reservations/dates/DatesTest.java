package io.ticketing.reservations.dates;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.availableNumber;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newQuotaOn;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeatsOn;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.ticketing.reservations.support.Sql;

/** Contract section 10: dates of an event series, their quotas, seats and prices, and passes for every date. */
@QuarkusTest
class DatesTest {

    private static final String DATES = "/api/v1/events/{event}/dates";
    private static final String DATE = DATES + "/{date}";

    @Inject
    Sql sql;

    @Test
    void aDateIsCreatedListedReadChangedOnItsVersionAndDeletedWhileNothingNamesIt() {
        String event = newEvent("dates-crud");
        JsonPath created = admin().body(Map.of("name", "Friday", "starts_at", "2026-12-04T19:00:00Z", "ends_at",
                "2026-12-04T21:30:00Z")).post(DATES, event).then().statusCode(201).extract().jsonPath();
        long date = created.getLong("id");
        assertThat(created.getString("name")).isEqualTo("Friday");
        assertThat(created.getBoolean("active")).isTrue();
        long second = newDate(event, 5);

        JsonPath page = admin().queryParam("limit", 1).get(DATES, event).then().statusCode(200).extract().jsonPath();
        assertThat(page.getList("data.id", Long.class)).containsExactly(date);
        assertThat(admin().queryParam("cursor", page.getString("next_cursor")).get(DATES, event).then()
                .statusCode(200).extract().jsonPath().getList("data.id", Long.class)).containsExactly(second);

        Response read = admin().get(DATE, event, date);
        read.then().statusCode(200).body("ends_at", equalTo("2026-12-04T21:30:00Z"));
        String etag = read.header("ETag");
        admin().body(Map.of("active", false)).patch(DATE, event, date).then().statusCode(428);
        admin().header("If-Match", etag).body(Map.of("active", false, "name", "Friday late"))
                .patch(DATE, event, date).then().statusCode(200).body("active", equalTo(false))
                .body("name", equalTo("Friday late"));
        admin().header("If-Match", etag).body(Map.of("active", true)).patch(DATE, event, date).then()
                .statusCode(412).body("code", equalTo("version_conflict"));
        admin().body(Map.of("name", "x", "starts_at", "2026-12-04T19:00:00Z", "ends_at", "2026-12-04T18:00:00Z"))
                .post(DATES, event).then().statusCode(400).body("code", equalTo("validation_failed"));

        long item = newItem(event, "Ticket", "10");
        newQuotaOn(event, second, 5, List.of(item));
        admin().delete(DATE, event, second).then().statusCode(409).body("code", equalTo("in_use"));
        admin().delete(DATE, event, date).then().statusCode(204);
        admin().get(DATE, event, date).then().statusCode(404);
    }

    @Test
    void aPositionNamesAnActiveDateAndCountsInThatDatesQuotasAndThoseOfNoDate() {
        String event = newEvent("dates-count");
        long friday = newDate(event, 4);
        long saturday = newDate(event, 5);
        long ticket = newItem(event, "Ticket", "10");
        long fridayQuota = newQuotaOn(event, friday, 2, List.of(ticket));
        long saturdayQuota = newQuotaOn(event, saturday, 2, List.of(ticket));
        long wholeRun = newQuota(event, 3, List.of(ticket));
        String cart = newCart(event);

        addToCart(event, cart, Map.of("item_id", ticket)).then().statusCode(409).body("code", equalTo("date_required"));
        addToCart(event, cart, Map.of("item_id", ticket, "date_id", 999_999_999)).then().statusCode(404);
        addToCart(event, cart, Map.of("item_id", ticket, "date_id", friday, "quantity", 2)).then().statusCode(201)
                .body("positions[0].date_id", equalTo((int) friday));
        addToCart(event, cart, Map.of("item_id", ticket, "date_id", friday)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted")).body("quota_id", equalTo((int) fridayQuota));
        addToCart(event, cart, Map.of("item_id", ticket, "date_id", saturday)).then().statusCode(201);
        // The run's quota of three is full now, whatever Saturday's has left.
        addToCart(event, cart, Map.of("item_id", ticket, "date_id", saturday)).then().statusCode(409)
                .body("quota_id", equalTo((int) wholeRun));
        assertThat(availableNumber(event, saturdayQuota)).isEqualTo(1);
        assertThat(availableNumber(event, wholeRun)).isZero();

        String etag = admin().get(DATE, event, saturday).header("ETag");
        admin().header("If-Match", etag).body(Map.of("active", false)).patch(DATE, event, saturday).then()
                .statusCode(200);
        addToCart(event, newCart(event), Map.of("item_id", ticket, "date_id", saturday)).then().statusCode(409)
                .body("code", equalTo("date_unavailable"));
    }

    @Test
    void catalogAvailabilityAndTheSeatListTakeADateAndTheDatesPrice() {
        String event = newEvent("dates-catalog");
        long friday = newDate(event, 4);
        long saturday = newDate(event, 5);
        long ticket = newItem(event, "Ticket", "10.00");
        long seat = newSeatedItem(event, "Seat", "30.00");
        newQuotaOn(event, friday, 5, List.of(ticket, seat));
        newQuotaOn(event, saturday, 1, List.of(ticket, seat));
        newSeatsOn(event, friday, seat, "A", 3);
        newSeatsOn(event, saturday, seat, "A", 3);
        String etag = admin().get(DATE, event, saturday).header("ETag");
        admin().header("If-Match", etag).body(Map.of("prices", Map.of(String.valueOf(ticket), "14.00"))).patch(DATE,
                event, saturday).then().statusCode(200).body("prices." + ticket, equalTo("14.00"));

        JsonPath fridayCatalog = storefront().queryParam("date_id", friday).get("/api/v1/events/{event}/catalog",
                event).then().statusCode(200).extract().jsonPath();
        assertThat(fridayCatalog.getString("items.find { it.item_id == " + ticket + " }.price")).isEqualTo("10.00");
        assertThat(fridayCatalog.getInt("items.find { it.item_id == " + ticket + " }.available_number")).isEqualTo(5);
        assertThat(fridayCatalog.getInt("items.find { it.item_id == " + seat + " }.available_number")).isEqualTo(3);
        JsonPath saturdayCatalog = storefront().queryParam("date_id", saturday)
                .get("/api/v1/events/{event}/catalog", event).then().statusCode(200).extract().jsonPath();
        assertThat(saturdayCatalog.getString("items.find { it.item_id == " + ticket + " }.price")).isEqualTo("14.00");
        assertThat(saturdayCatalog.getInt("items.find { it.item_id == " + ticket + " }.available_number"))
                .isEqualTo(1);

        String cart = newCart(event);
        addToCart(event, cart, Map.of("item_id", ticket, "date_id", saturday)).then().statusCode(201)
                .body("positions[0].price", equalTo("14.00"));
        // The same guid on two dates is two seats: both can be held.
        addToCart(event, cart, Map.of("item_id", seat, "date_id", friday, "seat_guid", "A-1")).then().statusCode(201);
        addToCart(event, newCart(event), Map.of("item_id", seat, "date_id", friday, "seat_guid", "A-1")).then()
                .statusCode(409).body("code", equalTo("seat_unavailable"));
        assertThat(storefront().queryParam("date_id", saturday).get("/api/v1/events/{event}/availability", event)
                .then().statusCode(200).extract().jsonPath()
                .getBoolean("items.find { it.item_id == " + ticket + " }.available")).isFalse();
        JsonPath fridaySeats = storefront().queryParam("date_id", friday).queryParam("available", true)
                .get("/api/v1/events/{event}/seats", event).then().statusCode(200).extract().jsonPath();
        assertThat(fridaySeats.getList("data.guid", String.class)).containsExactly("A-2", "A-3");
        assertThat(fridaySeats.getList("data.date_id", Long.class)).containsOnly(friday);
        // Saturday's quota of one is held: no seat of it can be held, though each is free (contract section 3).
        assertThat(storefront().queryParam("date_id", saturday).queryParam("available", true)
                .get("/api/v1/events/{event}/seats", event).then().extract().jsonPath().getList("data.guid"))
                .isEmpty();
        storefront().queryParam("date_id", "x").get("/api/v1/events/{event}/catalog", event).then().statusCode(400);
    }

    @Test
    void aPassTakesOneOnEveryDateOnSaleOrNotAndItsSeatGuidOnEach() {
        String event = newEvent("dates-pass");
        long friday = newDate(event, 4);
        long saturday = newDate(event, 5);
        long sunday = newDate(event, 6);
        long single = newItem(event, "Single", "10");
        long pass = newItem(event, Map.of("name", "Pass", "price", "25", "every_date", true));
        long seatedPass = newItem(event,
                Map.of("name", "Seated pass", "price", "60", "every_date", true, "requires_seat", true));
        long fridayQuota = newQuotaOn(event, friday, 3, List.of(single, pass, seatedPass));
        long saturdayQuota = newQuotaOn(event, saturday, 1, List.of(single, pass, seatedPass));
        long sundayQuota = newQuotaOn(event, sunday, 2, List.of(single, pass, seatedPass));
        String etag = admin().get(DATE, event, sunday).header("ETag");
        admin().header("If-Match", etag).body(Map.of("active", false)).patch(DATE, event, sunday).then()
                .statusCode(200);
        for (long date : List.of(friday, saturday, sunday)) {
            newSeatsOn(event, date, seatedPass, "P", 2);
        }

        String cart = newCart(event);
        addToCart(event, cart, Map.of("item_id", pass, "date_id", friday)).then().statusCode(400);
        addToCart(event, cart, Map.of("item_id", pass)).then().statusCode(201)
                .body("positions[0].date_id", equalTo(null));
        assertThat(availableNumber(event, fridayQuota)).isEqualTo(2);
        assertThat(availableNumber(event, saturdayQuota)).isZero();
        // Sunday is off sale, and the pass counts there all the same (contract section 10, corrected 2026-11-26).
        assertThat(availableNumber(event, sundayQuota)).isEqualTo(1);
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1", cart)).isEqualTo(1);
        addToCart(event, newCart(event), Map.of("item_id", single, "date_id", saturday)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        addToCart(event, newCart(event), Map.of("item_id", pass)).then().statusCode(409)
                .body("quota_id", equalTo((int) saturdayQuota));
        storefront().delete("/api/v1/events/{event}/carts/{cart}", event, cart).then().statusCode(204);

        String seated = newCart(event);
        addToCart(event, seated, Map.of("item_id", seatedPass, "seat_guid", "P-1")).then().statusCode(201)
                .body("positions[0].seat_guid", equalTo("P-1"));
        // P-1 is held on every date; P-2 is free on each, but Saturday's quota of one is the pass's now, so no other
        // pass fits, and a seat shown free can be held (contract section 3): none is shown.
        for (long date : List.of(friday, saturday, sunday)) {
            assertThat(storefront().queryParam("date_id", date).queryParam("available", true)
                    .get("/api/v1/events/{event}/seats", event).then().extract().jsonPath().getList("data.guid"))
                    .as("the pass's seat on date %d", date).isEmpty();
        }
        checkout(event, seated).then().statusCode(201).body("positions[0].seat_guid", equalTo("P-1"));
        String etagQuota = admin().get("/api/v1/events/{event}/quotas/{quota}", event, saturdayQuota).header("ETag");
        admin().header("If-Match", etagQuota).body(Map.of("size", 2))
                .patch("/api/v1/events/{event}/quotas/{quota}", event, saturdayQuota).then().statusCode(200);
        assertThat(storefront().queryParam("date_id", saturday).queryParam("available", true)
                .get("/api/v1/events/{event}/seats", event).then().extract().jsonPath().getList("data.guid"))
                .as("room for one more pass: its free guid is shown on every date").containsExactly("P-2");
        addToCart(event, newCart(event), Map.of("item_id", seatedPass, "seat_guid", "P-2")).then().statusCode(201);
    }

    @Test
    void whatAPassBundlesCountsOnEveryDateAndIsNoPassAlone() {
        String event = newEvent("dates-pass-bundle");
        long friday = newDate(event, 4);
        long saturday = newDate(event, 5);
        long drink = newItem(event, "Drink", "4");
        long pass = newItem(event, Map.of("name", "Pass with a drink", "price", "30", "every_date", true, "bundle",
                List.of(Map.of("item_id", drink, "count", 1))));
        newQuotaOn(event, friday, 5, List.of(pass));
        newQuotaOn(event, saturday, 5, List.of(pass));
        long fridayDrinks = newQuotaOn(event, friday, 1, List.of(drink));
        long saturdayDrinks = newQuotaOn(event, saturday, 2, List.of(drink));
        addToCart(event, newCart(event), Map.of("item_id", pass)).then().statusCode(201)
                .body("positions.size()", equalTo(2));
        assertThat(availableNumber(event, fridayDrinks)).isZero();
        assertThat(availableNumber(event, saturdayDrinks)).isEqualTo(1);
        addToCart(event, newCart(event), Map.of("item_id", drink)).then().statusCode(409)
                .body("code", equalTo("date_required"));
        addToCart(event, newCart(event), Map.of("item_id", pass)).then().statusCode(409)
                .body("quota_id", equalTo((int) fridayDrinks));
        addToCart(event, newCart(event), Map.of("item_id", drink, "date_id", saturday)).then().statusCode(201);
    }

    @Test
    void aSeatedPassNeedsItsGuidOnEveryActiveDate() {
        String event = newEvent("dates-pass-seat");
        long friday = newDate(event, 4);
        long saturday = newDate(event, 5);
        long seatedPass = newItem(event,
                Map.of("name", "Seated pass", "price", "60", "every_date", true, "requires_seat", true));
        newQuotaOn(event, friday, 5, List.of(seatedPass));
        newQuotaOn(event, saturday, 5, List.of(seatedPass));
        newSeatsOn(event, friday, seatedPass, "Q", 2);
        newSeatsOn(event, saturday, seatedPass, "Q", 1);
        addToCart(event, newCart(event), Map.of("item_id", seatedPass, "seat_guid", "Q-2")).then().statusCode(409)
                .body("code", equalTo("seat_not_allowed")).body("date_id", equalTo((int) saturday));
        addToCart(event, newCart(event), Map.of("item_id", seatedPass)).then().statusCode(409)
                .body("code", equalTo("seat_required"));
        // A single date's buyer cannot take the seat a pass holds on that date.
        addToCart(event, newCart(event), Map.of("item_id", seatedPass, "seat_guid", "Q-1")).then().statusCode(201);
        addToCart(event, newCart(event), Map.of("item_id", seatedPass, "seat_guid", "Q-1")).then().statusCode(409)
                .body("code", equalTo("seat_unavailable"));
    }

    @Test
    void anItemHasPricesOnDatesAndAnOrderKeepsItsPositionsDates() {
        String event = newEvent("dates-prices");
        long friday = newDate(event, 4);
        long ticket = newItem(event,
                Map.of("name", "Ticket", "price", "10.00", "prices", Map.of(String.valueOf(friday), "7.50")));
        JsonPath item = admin().get("/api/v1/events/{event}/items/{item}", event, ticket).then().statusCode(200)
                .extract().jsonPath();
        assertThat(item.getString("prices." + friday)).isEqualTo("7.50");
        Map<String, Object> unknownDate = new HashMap<>(Map.of("name", "Other", "price", "1.00"));
        unknownDate.put("prices", Map.of("999999999", "1.00"));
        admin().body(unknownDate).post("/api/v1/events/{event}/items", event).then().statusCode(404);
        newQuotaOn(event, friday, 5, List.of(ticket));
        String cart = newCart(event);
        addToCart(event, cart, Map.of("item_id", ticket, "date_id", friday)).then().statusCode(201);
        checkout(event, cart).then().statusCode(201).body("total", equalTo("7.50"))
                .body("positions[0].date_id", equalTo((int) friday));
    }
}

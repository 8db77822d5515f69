package io.ticketing.reservations.order;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.changeOrder;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newBundle;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.order;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.ticketing.reservations.reservation.RacePauses;
import io.ticketing.reservations.support.Json;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * Contract section 3, "A ticket is one ticket": a seat is sold once per date whatever dates come later, and an order
 * change renews only the positions it changes, never a ticket at the doors.
 */
@QuarkusTest
class OneTicketTest {

    private static final String EVENT = "/api/v1/events/{event}";
    private static final String LISTS = EVENT + "/checkin_lists";

    @Inject
    Sql sql;

    @Inject
    RacePauses pauses;

    private static Map<String, Object> newDate() {
        return Map.of("name", "Second night", "starts_at", "2026-12-20T19:00:00Z");
    }

    /** Section 10, "Becoming a series": the first date waits until no position without a date is held or sold. */
    @Test
    void anEventThatSoldWithoutDatesGetsNoDateUntilThoseSalesAreGone() {
        String event = newEvent("one-ticket-series");
        long seated = newSeatedItem(event, "Seat", "30");
        long ticket = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(seated, ticket));
        newSeats(event, seated, "S-1", 2);
        String sold = checkout(event, cartWith(event, Map.of("item_id", seated, "seat_guid", "S-1-1"))).then()
                .statusCode(201).extract().path("code");
        String held = cartWith(event, Map.of("item_id", ticket));

        admin().body(newDate()).post(EVENT + "/dates", event).then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo("event_has_sales"));
        admin().post(EVENT + "/orders/{code}/cancel", event, sold).then().statusCode(200);
        admin().body(newDate()).post(EVENT + "/dates", event).then().statusCode(409)
                .body("code", equalTo("event_has_sales"));
        assertThat(sql.number("SELECT count(*) FROM event_dates d JOIN events e ON e.id = d.event_id"
                + " WHERE e.slug = ?1", event)).isZero();

        storefront().delete(EVENT + "/carts/{cart}", event, held).then().statusCode(204);
        admin().body(newDate()).post(EVENT + "/dates", event).then().statusCode(201);
        Oracle.assertNeverOversold(sql, event);
    }

    /**
     * Section 10 again: a waiting-list entry is a promise to a buyer of the event as one night, and a series has no
     * waiting list, so the first date waits until no entry waits or holds an offer (an offer could no longer be
     * bought).
     */
    @Test
    void anEventWhoseWaitingListIsOpenGetsNoDateUntilItsEntriesAreGone() {
        String event = newEvent("one-ticket-waiting");
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true))).patch(EVENT, event)
                .then().statusCode(200);
        long ticket = newItem(event, "Ticket", "10");
        newQuota(event, 1, List.of(ticket));
        String held = cartWith(event, Map.of("item_id", ticket));
        String entry = storefront().body(Map.of("item_id", ticket, "email", "wait@example.com"))
                .post(EVENT + "/waiting_list", event).then().statusCode(201).extract().path("id");
        storefront().delete(EVENT + "/carts/{cart}", event, held).then().statusCode(204);

        admin().body(newDate()).post(EVENT + "/dates", event).then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo("event_has_sales"));
        storefront().delete(EVENT + "/waiting_list/{entry}", event, entry).then().statusCode(204);
        admin().body(newDate()).post(EVENT + "/dates", event).then().statusCode(201);
    }

    /**
     * The same rule against a race: a join that read the event before its first date, held between its reads and its
     * locks while the date is added, is judged again under the event's lock and refused; no entry waits in a series.
     */
    @Test
    void aJoinThatReadTheEventBeforeItsFirstDateIsRefusedOnceTheDateIsThere() throws Exception {
        String event = newEvent("one-ticket-join-race");
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true))).patch(EVENT, event)
                .then().statusCode(200);
        long ticket = newItem(event, "Ticket", "10");
        newQuota(event, 0, List.of(ticket));
        Response joined = pauses.heldBeforeLocksWhile(sql.number("SELECT id FROM events WHERE slug = ?1", event),
                () -> storefront().body(Map.of("item_id", ticket, "email", "race@example.com"))
                        .post(EVENT + "/waiting_list", event),
                () -> admin().body(newDate()).post(EVENT + "/dates", event).then().statusCode(201));
        assertThat(joined.statusCode()).as(joined.asString()).isEqualTo(409);
        assertThat(joined.jsonPath().getString("code")).isEqualTo("waiting_list_off");
        assertThat(sql.number("SELECT count(*) FROM waiting_list_entries w JOIN events e ON e.id = w.event_id"
                + " WHERE e.slug = ?1", event)).as("entries in the series").isZero();
    }

    /**
     * Changing a bundle's position (here into the same bundle) keeps what the bundle still brings as it is: its id,
     * secret and place at the doors. A ticket inside cannot be changed or canceled away.
     */
    @Test
    void aBundleChangeKeepsWhatItStillBringsAndNoTicketInsideIsChangedAway() {
        String event = newEvent("one-ticket-bundle");
        long parking = newItem(event, "Parking", "5");
        long bundle = newBundle(event, "Ticket with parking", "25", parking, 1);
        newQuota(event, 10, List.of(bundle, parking));
        String code = checkout(event, cartWith(event, Map.of("item_id", bundle))).then().statusCode(201).extract()
                .path("code");
        admin().post(EVENT + "/orders/{code}/mark_paid", event, code).then().statusCode(200);
        JsonPath before = order(event, code);
        long bundlePosition = before.getLong("positions.find { it.item_id == " + bundle + " }.id");
        long parkingPosition = before.getLong("positions.find { it.item_id == " + parking + " }.id");
        String parkingSecret = before.getString("positions.find { it.item_id == " + parking + " }.secret");
        long gate = Json.number(admin().body(Map.of("name", "Car park", "items", List.of(parking),
                "allow_entry_after_exit", false)).post(LISTS, event).then().statusCode(201).extract(), "id");
        scan(event, gate, parkingSecret, "p1").then().statusCode(201).body("result", equalTo("ok"));

        changeOrder(event, code, before.getString("version"), List.of(Map.of("op", "change_item", "position_id",
                bundlePosition, "item_id", bundle))).then().statusCode(200);
        JsonPath after = order(event, code);
        assertThat(after.getLong("positions.find { it.item_id == " + parking + " }.id")).isEqualTo(parkingPosition);
        assertThat(after.getString("positions.find { it.item_id == " + parking + " }.secret"))
                .isEqualTo(parkingSecret);
        scan(event, gate, parkingSecret, "p2").then().statusCode(201).body("result", equalTo("already_inside"));
        admin().get(LISTS + "/{list}", event, gate).then().statusCode(200).body("inside", equalTo(1));

        changeOrder(event, code, after.getString("version"), List.of(Map.of("op", "cancel_position", "position_id",
                bundlePosition), Map.of("op", "add", "item_id", parking))).then().statusCode(409)
                .body("code", equalTo("position_inside"));
        changeOrder(event, code, after.getString("version"), List.of(Map.of("op", "change_item", "position_id",
                bundlePosition, "item_id", parking))).then().statusCode(409).body("code", equalTo("position_inside"));
        assertThat(order(event, code).getList("positions.id", Long.class))
                .containsExactlyInAnyOrder(bundlePosition, parkingPosition);
        addToCart(event, newCart(event), Map.of("item_id", parking)).then().statusCode(201);
        Oracle.assertNeverOversold(sql, event);
    }

    private static Response scan(String event, long list, String secret, String nonce) {
        return admin().body(Map.of("secret", secret, "type", "entry", "nonce", nonce))
                .post(LISTS + "/{list}/scans", event, list);
    }
}

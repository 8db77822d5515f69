package io.ticketing.reservations.checkin;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.checkin.Gates.LISTS;
import static io.ticketing.reservations.checkin.Gates.SCANS;
import static io.ticketing.reservations.checkin.Gates.inside;
import static io.ticketing.reservations.checkin.Gates.newList;
import static io.ticketing.reservations.checkin.Gates.paidTickets;
import static io.ticketing.reservations.checkin.Gates.scan;
import static io.ticketing.reservations.checkin.Gates.scanned;
import static io.ticketing.reservations.checkin.Gates.secrets;
import static io.ticketing.reservations.support.Api.ADMIN;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.changeOrder;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newQuotaOn;
import static io.ticketing.reservations.support.Api.newToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Sql;

/**
 * Check-in (contract section 14) at one gate: every result and every flag of a list, its counts, the check-in
 * token's reach, and a ticket's secret shown in its order and nowhere else.
 */
@QuarkusTest
class CheckinTest {

    @Inject
    Sql sql;

    @Test
    void eachScanIsJudgedByTheListsRulesAndOnlyOkChangesWhereTheTicketStands() {
        String event = newEvent("gate");
        long ticket = newItem(event, "Ticket", "10");
        long parking = newItem(event, "Parking", "5");
        newQuota(event, 100, List.of(ticket, parking));
        List<String> paid = paidTickets(event, ticket, 2);
        String pending = secrets(event, Gates.sold(event, ticket, null, 1, false)).get(0);
        String car = paidTickets(event, parking, 1).get(0);
        String canceledCode = Gates.sold(event, ticket, null, 1, true);
        String canceled = secrets(event, canceledCode).get(0);
        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, canceledCode).then().statusCode(200);

        long main = newList(event, Map.of("name", "Main entrance", "items", List.of(ticket)));
        admin().get(LISTS + "/{list}", event, main).then().statusCode(200).body("positions", equalTo(2))
                .body("inside", equalTo(0)).body("allow_entry_after_exit", equalTo(true));
        assertThat(scanned(event, main, paid.get(0), "entry", "n1")).isEqualTo("ok");
        assertThat(scanned(event, main, paid.get(0), "entry", "n2")).isEqualTo("already_inside");
        assertThat(scanned(event, main, paid.get(0), "entry", "n1")).as("a retry answers the first").isEqualTo("ok");
        assertThat(inside(event, main)).isEqualTo(1);
        assertThat(scanned(event, main, paid.get(0), "exit", "n3")).isEqualTo("ok");
        assertThat(inside(event, main)).isZero();
        assertThat(scanned(event, main, paid.get(0), "entry", "n4")).as("re-entry after exit").isEqualTo("ok");
        assertThat(scanned(event, main, pending, "entry", "n5")).isEqualTo("unpaid");
        assertThat(scanned(event, main, car, "entry", "n6")).isEqualTo("not_on_list");
        assertThat(scanned(event, main, canceled, "entry", "n7")).isEqualTo("canceled");
        scan(ADMIN, event, main, "no-such-ticket", "entry", "n8").then()
                .statusCode(201).body("result", equalTo("unknown")).body("position", nullValue())
                .body("list.name", equalTo("Main entrance"));
        assertThat(scanned(event, main, paid.get(1), "exit", "n9")).as("an exit is never refused").isEqualTo("ok");
        assertThat(inside(event, main)).isEqualTo(1);
        assertThat(sql.number("SELECT count(*) FROM checkin_scans WHERE list_id = ?1", main)).isEqualTo(9);

        long lenient = newList(event, Map.of("name", "Staff door", "allow_pending", true,
                "allow_multiple_entries", true));
        assertThat(scanned(event, lenient, pending, "entry", "m1")).isEqualTo("ok");
        assertThat(scanned(event, lenient, pending, "entry", "m2")).isEqualTo("ok");
        assertThat(scanned(event, lenient, car, "entry", "m3")).as("every item").isEqualTo("ok");
        admin().get(LISTS + "/{list}", event, lenient).then().body("positions", equalTo(4)).body("inside", equalTo(2));

        long once = newList(event, Map.of("name", "Once", "allow_entry_after_exit", false));
        assertThat(scanned(event, once, paid.get(1), "entry", "o1")).isEqualTo("ok");
        assertThat(scanned(event, once, paid.get(1), "exit", "o2")).isEqualTo("ok");
        assertThat(scanned(event, once, paid.get(1), "entry", "o3")).isEqualTo("already_inside");
        assertThat(inside(event, main)).as("lists are apart").isEqualTo(1);
    }

    @Test
    void aDatesListTakesItsDatesTicketsAndRefusesAnotherDates() {
        String event = newEvent("gate-dates");
        long ticket = newItem(event, "Ticket", "10");
        long friday = newDate(event, 4);
        long saturday = newDate(event, 5);
        newQuotaOn(event, friday, 10, List.of(ticket));
        newQuotaOn(event, saturday, 10, List.of(ticket));
        String onFriday = secrets(event, Gates.sold(event, ticket, friday, 1, true)).get(0);
        String onSaturday = secrets(event, Gates.sold(event, ticket, saturday, 1, true)).get(0);
        long fridayList = newList(event, Map.of("name", "Friday", "date_id", friday));
        admin().get(LISTS + "/{list}", event, fridayList).then().body("positions", equalTo(1));
        assertThat(scanned(event, fridayList, onSaturday, "entry", "d1")).isEqualTo("not_on_list");
        assertThat(scanned(event, fridayList, onFriday, "entry", "d2")).isEqualTo("ok");
    }

    @Test
    void aTicketInsideCanAlwaysLeaveAndANonceCannotBeReusedForAnotherTicket() {
        String event = newEvent("gate-leave");
        long ticket = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(ticket));
        String code = Gates.sold(event, ticket, null, 2, true);
        List<String> secrets = secrets(event, code);
        long list = newList(event, Map.of("name", "Doors"));
        assertThat(scanned(event, list, secrets.get(0), "entry", "l1")).isEqualTo("ok");
        assertThat(scanned(event, list, secrets.get(1), "entry", "l2")).isEqualTo("ok");
        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, code).then().statusCode(200);
        assertThat(scanned(event, list, secrets.get(0), "entry", "l3")).isEqualTo("canceled");
        assertThat(scanned(event, list, secrets.get(0), "exit", "l4")).as("leaving after a cancel").isEqualTo("ok");
        assertThat(inside(event, list)).isEqualTo(1);

        scan(ADMIN, event, list, secrets.get(1), "exit", "l1").then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo("nonce_reused"));
        assertThat(inside(event, list)).as("the reused nonce changed nothing").isEqualTo(1);
        assertThat(sql.number("SELECT count(*) FROM checkin_scans WHERE list_id = ?1", list)).isEqualTo(4);
    }

    @Test
    void aTicketInsideIsNeverCanceledAwayAndADateWithAListStays() {
        String event = newEvent("gate-change");
        long ticket = newItem(event, "Ticket", "10");
        long day = newDate(event, 6);
        newQuotaOn(event, day, 10, List.of(ticket));
        String code = Gates.sold(event, ticket, day, 2, true);
        long list = newList(event, Map.of("name", "Day", "date_id", day));
        List<String> secrets = secrets(event, code);
        assertThat(scanned(event, list, secrets.get(0), "entry", "c1")).isEqualTo("ok");
        assertThat(scanned(event, list, secrets.get(1), "entry", "c2")).isEqualTo("ok");
        long first = io.ticketing.reservations.support.Api.order(event, code).getLong("positions[0].id");
        changeOrder(event, code, "1", List.of(Map.of("op", "cancel_position", "position_id", first))).then()
                .statusCode(409).body("code", equalTo("position_inside")).body("position_id", equalTo((int) first));
        assertThat(inside(event, list)).isEqualTo(2);
        assertThat(scanned(event, list, secrets.get(0), "exit", "c3")).isEqualTo("ok");
        changeOrder(event, code, "1", List.of(Map.of("op", "cancel_position", "position_id", first))).then()
                .statusCode(200);
        assertThat(inside(event, list)).isEqualTo(1);
        long quiet = newDate(event, 7);
        newList(event, Map.of("name", "Quiet day", "date_id", quiet));
        admin().delete("/api/v1/events/{event}/dates/{date}", event, quiet).then().statusCode(409)
                .body("code", equalTo("in_use"));
    }

    @Test
    void aCheckinTokenScansAndReadsListsOnlyOnItsEvents() {
        String event = newEvent("gate-token");
        String other = newEvent("gate-token-other");
        long ticket = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(ticket));
        String secret = paidTickets(event, ticket, 1).get(0);
        long list = newList(event, Map.of("name", "Doors"));
        String scanner = "Bearer " + newToken("default", "checkin", List.of(event));

        assertThat(scan(scanner, event, list, secret, "entry", "t1").then().statusCode(201).extract()
                .<String>path("result")).isEqualTo("ok");
        given().header("Authorization", scanner).get(LISTS, event).then().statusCode(200)
                .body("data[0].inside", equalTo(1));
        given().header("Authorization", scanner).contentType("application/json").body(Map.of("name", "Mine"))
                .post(LISTS, event).then().statusCode(403);
        given().header("Authorization", scanner).contentType("application/json")
                .post("/api/v1/events/{event}/carts", event).then().statusCode(403);
        given().header("Authorization", scanner).get("/api/v1/events/{event}/orders", event).then().statusCode(403);
        given().header("Authorization", scanner).get(LISTS, other).then().statusCode(404);
        scan(scanner, other, list, secret, "entry", "t2").then().statusCode(404);
    }

    @Test
    void aSecretIsInItsOrderAndNowhereElseAndAnOrderChangeKeepsIt() {
        String event = newEvent("gate-secret");
        long ticket = newItem(event, "Ticket", "10");
        long vip = newItem(event, "VIP", "30");
        newQuota(event, 10, List.of(ticket, vip));
        String code = Gates.sold(event, ticket, null, 2, true);
        List<String> before = secrets(event, code);
        assertThat(before).hasSize(2).doesNotHaveDuplicates().allSatisfy(secret -> assertThat(secret).hasSize(64));
        long first = io.ticketing.reservations.support.Api.order(event, code).getLong("positions[0].id");
        long list = newList(event, Map.of("name", "Doors"));

        String scan = scan(ADMIN, event, list, before.get(0), "entry", "s1")
                .then().statusCode(201).extract().asString();
        String lists = admin().get(LISTS, event).then().statusCode(200).extract().asString();
        String search = admin().get("/api/v1/events/{event}/orders", event).then().statusCode(200).extract().asString();
        for (String shown : List.of(scan, lists, search)) {
            assertThat(shown).doesNotContain(before.get(0)).doesNotContain(before.get(1));
        }
        assertThat(sql.number("SELECT count(*) FROM webhook_messages WHERE strpos(CAST(body AS text), ?1) > 0",
                before.get(0))).isZero();

        List<Map<String, Object>> upgrade = List.of(Map.of("op", "change_item", "position_id", first, "item_id", vip),
                Map.of("op", "add", "item_id", ticket));
        changeOrder(event, code, "1", upgrade).then().statusCode(409).body("code", equalTo("position_inside"));
        assertThat(scanned(event, list, before.get(0), "exit", "s2")).isEqualTo("ok");
        changeOrder(event, code, "1", upgrade).then().statusCode(200);
        List<String> after = secrets(event, code);
        assertThat(after).hasSize(3).contains(before.get(0), before.get(1)).doesNotHaveDuplicates();
        assertThat(scanned(event, list, before.get(0), "entry", "s3")).as("the changed ticket still scans")
                .isEqualTo("ok");
    }

    @Test
    void badScansAreProblemsThatWriteNothing() {
        String event = newEvent("gate-bad");
        long list = newList(event, Map.of("name", "Doors"));
        admin().body(Map.of("secret", "x", "type", "enter", "nonce", "")).post(SCANS, event, list).then()
                .statusCode(400).contentType("application/problem+json")
                .body("errors.field", containsInAnyOrder("type", "nonce"));
        admin().body(Map.of("secret", "x", "type", "entry", "nonce", "b1")).post(SCANS, event, list + 1000000)
                .then().statusCode(404).contentType("application/problem+json");
        admin().body(Map.of("name", "Wrong", "items", List.of(123456789))).post(LISTS, event).then().statusCode(400)
                .body("errors[0].field", equalTo("items"));
        assertThat(sql.number("SELECT count(*) FROM checkin_scans WHERE list_id = ?1", list)).isZero();
    }
}

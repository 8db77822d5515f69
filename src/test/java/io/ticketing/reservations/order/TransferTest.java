package io.ticketing.reservations.order;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.buyerToken;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newBundle;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newCartOf;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.order;
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
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Oracle.QuotaUsage;
import io.ticketing.reservations.support.Sql;

/**
 * Transfers (contract section 14): a ticket changes hands at a sold-out event without consuming anything again, gets
 * a new secret, takes what its bundle brought along, and stays where it is when it is inside, bundled, of a closed
 * order, or past the receiver's limits.
 */
@QuarkusTest
class TransferTest {

    static final String ORDER = "/api/v1/events/{event}/orders/{code}";
    static final String TRANSFER = ORDER + "/positions/{position}/transfer";

    @Inject
    Sql sql;

    static Response transfer(String event, String code, long position, Map<String, Object> receiver) {
        return admin().body(receiver).post(TRANSFER, event, code, position);
    }

    /** An order of the cart's positions, paid. */
    static String paidOrder(String event, String cart) {
        String code = checkout(event, cart).then().statusCode(201).extract().path("code");
        admin().post(ORDER + "/mark_paid", event, code).then().statusCode(200);
        return code;
    }

    static String paidOrderOf(String event, Map<String, Object> position) {
        String cart = newCart(event);
        addToCart(event, cart, position).then().statusCode(201);
        return paidOrder(event, cart);
    }

    private static long newList(String event) {
        return admin().body(Map.of("name", "Doors")).post("/api/v1/events/{event}/checkin_lists", event).then()
                .statusCode(201).extract().jsonPath().getLong("id");
    }

    private static String scanned(String event, long list, String secret, String type, String nonce) {
        return admin().body(Map.of("secret", secret, "type", type, "nonce", nonce))
                .post("/api/v1/events/{event}/checkin_lists/{list}/scans", event, list).then().statusCode(201)
                .extract().path("result");
    }

    @Test
    void aTicketChangesHandsAtASoldOutEventWithANewSecretAndNothingConsumedAgain() {
        String event = newEvent("transfer");
        long seated = newSeatedItem(event, "Stalls", "40");
        newSeats(event, seated, "A", 2);
        long quota = newQuota(event, 2, List.of(seated));
        String code = paidOrderOf(event, Map.of("item_id", seated, "seat_guid", "A-1"));
        paidOrderOf(event, Map.of("item_id", seated, "seat_guid", "A-2"));
        JsonPath before = order(event, code);
        long position = before.getLong("positions[0].id");
        String oldSecret = before.getString("positions[0].secret");
        long list = newList(event);
        Map<Long, QuotaUsage> usageBefore = Oracle.quotas(sql, event);
        assertThat(usageBefore.get(quota).paid()).as("sold out").isEqualTo(2);

        Response moved = transfer(event, code, position, Map.of("email", "grace@example.com"));
        moved.then().statusCode(200).header("ETag", "\"0\"").body("status", equalTo("paid"),
                "email", equalTo("grace@example.com"), "channel", equalTo("web"), "positions.size()", equalTo(1),
                "positions[0].id", equalTo((int) position), "positions[0].seat_guid", equalTo("A-1"),
                "positions[0].price", equalTo("40.00"), "total", equalTo("40.00"));
        String received = moved.path("code");
        String newSecret = moved.path("positions[0].secret");
        assertThat(received).isNotEqualTo(code);
        assertThat(newSecret).hasSize(64).isNotEqualTo(oldSecret);
        assertThat(order(event, received).getString("expires")).isEqualTo(before.getString("expires"));
        assertThat(order(event, received).getString("created_at")).as("the time of the sale")
                .isEqualTo(before.getString("created_at"));

        assertThat(Oracle.quotas(sql, event)).as("no quota's usage moved").isEqualTo(usageBefore);
        Oracle.assertNeverOversold(sql, event);
        admin().get(ORDER, event, code).then().statusCode(200).header("ETag", "\"2\"")
                .body("status", equalTo("paid"), "positions.size()", equalTo(0));
        assertThat(scanned(event, list, oldSecret, "entry", "t1")).as("the old ticket").isEqualTo("unknown");
        assertThat(scanned(event, list, newSecret, "entry", "t2")).as("the new ticket").isEqualTo("ok");
    }

    @Test
    void aBundleMovesWithWhatItBroughtAndWhatItBroughtNeverAlone() {
        String event = newEvent("transfer-bundle");
        long parking = newItem(event, "Parking", "5");
        long bundle = newBundle(event, "Ticket with parking", "50", parking, 1);
        long ticket = newItem(event, "Ticket", "30");
        newQuota(event, 10, List.of(parking, bundle, ticket));
        String cart = newCart(event);
        addToCart(event, cart, Map.of("item_id", bundle)).then().statusCode(201);
        addToCart(event, cart, Map.of("item_id", ticket)).then().statusCode(201);
        String code = paidOrder(event, cart);
        JsonPath sold = order(event, code);
        long bundlePosition = sold.getLong("positions.find { it.item_id == %d }.id".formatted(bundle));
        long brought = sold.getLong("positions.find { it.item_id == %d }.id".formatted(parking));

        transfer(event, code, brought, Map.of("email", "grace@example.com")).then().statusCode(409)
                .contentType("application/problem+json")
                .body("code", equalTo("position_bundled"), "bundled_in", equalTo((int) bundlePosition));
        Response moved = transfer(event, code, bundlePosition, Map.of("email", "grace@example.com"));
        moved.then().statusCode(200).body("positions.size()", equalTo(2),
                "positions.find { it.item_id == %d }.bundled_in".formatted(parking), equalTo((int) bundlePosition),
                "total", equalTo("50.00"));
        order(event, code).getList("positions.item_id", Long.class).forEach(left -> assertThat(left)
                .isEqualTo(ticket));
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void aTicketInsideOrOfAClosedOrderStaysAndBadRequestsChangeNothing() {
        String event = newEvent("transfer-refused");
        long ticket = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(ticket));
        String code = paidOrderOf(event, Map.of("item_id", ticket, "quantity", 2));
        JsonPath sold = order(event, code);
        long first = sold.getLong("positions[0].id");
        long list = newList(event);
        assertThat(scanned(event, list, sold.getString("positions[0].secret"), "entry", "in")).isEqualTo("ok");
        long orders = sql.number("SELECT count(*) FROM orders");

        transfer(event, code, first, Map.of("email", "grace@example.com")).then().statusCode(409)
                .contentType("application/problem+json")
                .body("code", equalTo("position_inside"), "position_id", equalTo((int) first));
        transfer(event, code, first, Map.of("email", "not-an-email")).then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("email"));
        transfer(event, code, 987654321L, Map.of("email", "grace@example.com")).then().statusCode(404)
                .contentType("application/problem+json");
        transfer(event, "NO-SUCH-ORDER", first, Map.of("email", "grace@example.com")).then().statusCode(404);
        assertThat(sql.number("SELECT count(*) FROM orders")).isEqualTo(orders);
        assertThat(order(event, code).getList("positions.secret")).isEqualTo(sold.getList("positions.secret"));

        assertThat(scanned(event, list, sold.getString("positions[0].secret"), "exit", "out")).isEqualTo("ok");
        transfer(event, code, first, Map.of("email", "grace@example.com")).then().statusCode(200);

        String canceled = paidOrderOf(event, Map.of("item_id", ticket));
        long position = order(event, canceled).getLong("positions[0].id");
        admin().post(ORDER + "/cancel", event, canceled).then().statusCode(200);
        transfer(event, canceled, position, Map.of("email", "grace@example.com")).then().statusCode(409)
                .body("code", equalTo("order_state"));
        String overdue = checkout(event, io.ticketing.reservations.support.Api.cartWith(event,
                Map.of("item_id", ticket))).then().statusCode(201).extract().path("code");
        sql.passDeadline(overdue);
        transfer(event, overdue, order(event, overdue).getLong("positions[0].id"),
                Map.of("email", "grace@example.com")).then().statusCode(409).body("code", equalTo("order_state"));
    }

    @Test
    void theReceiversLimitsApplyAndTheBuyerTheTicketCountsForAlreadyIsNotCountedTwice() {
        String event = newEvent("transfer-limits");
        Map<String, Object> limited = new HashMap<>(Map.of("name", "Ticket", "price", "10", "max_per_buyer", 2));
        long ticket = newItem(event, limited);
        newQuota(event, 10, List.of(ticket));
        String ann = newCartOf(event, "ann");
        addToCart(event, ann, Map.of("item_id", ticket, "quantity", 2)).then().statusCode(201);
        String code = paidOrder(event, ann);
        List<Long> positions = order(event, code).getList("positions.id", Long.class);
        String bob = newCartOf(event, "bob");
        addToCart(event, bob, Map.of("item_id", ticket, "quantity", 2)).then().statusCode(201);

        transfer(event, code, positions.get(0), Map.of("email", "bob@example.com", "buyer", "bob")).then()
                .statusCode(409).body("code", equalTo("buyer_limit"), "held", equalTo(2));
        transfer(event, code, positions.get(0), Map.of("email", "someone@example.com")).then().statusCode(409)
                .body("code", equalTo("buyer_required"));
        long unlimited = newItem(event, "Unlimited", "10");
        newQuota(event, 10, List.of(unlimited));
        String nobodys = paidOrderOf(event, Map.of("item_id", unlimited));
        admin().header("If-Match", "\"0\"").body(Map.of("max_per_buyer", 1))
                .patch("/api/v1/events/{event}/items/{item}", event, unlimited).then().statusCode(200);
        // A limit set since the sale: the receiver must be named, though the order's buyer is nobody either.
        transfer(event, nobodys, order(event, nobodys).getLong("positions[0].id"), Map.of("email", "x@example.com"))
                .then().statusCode(409).body("code", equalTo("buyer_required"));
        transfer(event, code, positions.get(0), Map.of("email", "x@example.com", "buyer_token", "forged")).then()
                .statusCode(403).body("code", equalTo("buyer_unverified"));
        transfer(event, code, positions.get(0), Map.of("email", "ann@example.com", "buyer", "ann")).then()
                .statusCode(200).body("buyer", equalTo("ann"));
        transfer(event, code, positions.get(1),
                Map.of("email", "cy@example.com", "buyer_token", buyerToken(event, "cy"))).then().statusCode(200)
                .body("buyer", equalTo("cy"));
        assertThat(Oracle.brokenPromises(sql, event, java.util.Set.of())).isEmpty();
    }
}

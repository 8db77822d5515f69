package io.ticketing.reservations.order;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.changeOrder;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newVoucher;
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
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/** Changing an order (contract section 9): all or nothing, on its version, locking only what it consumes more of. */
@QuarkusTest
class OrderChangesTest {

    private static final String ORDER = "/api/v1/events/{event}/orders/{code}";

    @Inject
    Sql sql;

    @Test
    void aSeatChangeTakesTheNewSeatAndFreesTheOldOne() {
        String event = newEvent("change-seat");
        long item = newSeatedItem(event, "Seat", "50");
        newQuota(event, 10, List.of(item));
        newSeats(event, item, "A", 2);
        String code = checkout(event, cartWith(event, Map.of("item_id", item, "seat_guid", "A-1"))).then()
                .statusCode(201).extract().path("code");
        storefront().get(ORDER, event, code).then().statusCode(200).header("ETag", "\"0\"");
        long position = order(event, code).getLong("positions[0].id");
        List<Map<String, Object>> toSeat2 = List.of(Map.of("op", "change_seat", "position_id", position,
                "seat_guid", "A-2"));

        changeOrder(event, code, null, toSeat2).then().statusCode(428).body("code", equalTo("precondition_required"));
        changeOrder(event, code, "0", toSeat2).then().statusCode(200).header("ETag", "\"1\"")
                .body("positions[0].id", equalTo((int) position)).body("positions[0].seat_guid", equalTo("A-2"))
                .body("total", equalTo("50.00")).body("version", equalTo(1));
        changeOrder(event, code, "0", toSeat2).then().statusCode(412).body("code", equalTo("version_conflict"));
        addToCart(event, newCart(event), Map.of("item_id", item, "seat_guid", "A-2")).then().statusCode(409)
                .body("code", equalTo("seat_unavailable"));
        addToCart(event, newCart(event), Map.of("item_id", item, "seat_guid", "A-1")).then().statusCode(201);
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void anItemChangeRepricesThePositionAndMovesWhatEachQuotaCounts() {
        String event = newEvent("change-item");
        long standard = newItem(event, "Standard", "10");
        long premium = newItem(event, "Premium", "25");
        long standardQuota = newQuota(event, 5, List.of(standard));
        long premiumQuota = newQuota(event, 5, List.of(premium));
        String code = checkout(event, cartWith(event, Map.of("item_id", standard, "quantity", 2))).then()
                .statusCode(201).extract().path("code");
        long first = order(event, code).getLong("positions[0].id");

        changeOrder(event, code, "0", List.of(Map.of("op", "change_item", "position_id", first, "item_id", premium)))
                .then().statusCode(200).body("total", equalTo("35.00"));
        assertThat(pending(event, standardQuota)).isEqualTo(1);
        assertThat(pending(event, premiumQuota)).isEqualTo(1);
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void positionsAreAddedWithVouchersAndCanceledButNeverTheLast() {
        String event = newEvent("change-add");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        newVoucher(event, Map.of("code", "ONE", "max_usages", 1));
        String code = checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201).extract()
                .path("code");
        long original = order(event, code).getLong("positions[0].id");

        changeOrder(event, code, "0", List.of(Map.of("op", "add", "item_id", item, "voucher_code", "ONE"),
                Map.of("op", "cancel_position", "position_id", original))).then().statusCode(200)
                .body("positions.size()", equalTo(1)).body("positions[0].voucher_code", equalTo("ONE"));
        admin().get("/api/v1/events/{event}/vouchers/{code}", event, "ONE").then().body("redeemed", equalTo(1));
        long added = order(event, code).getLong("positions[0].id");
        changeOrder(event, code, "1", List.of(Map.of("op", "cancel_position", "position_id", added))).then()
                .statusCode(400).body("code", equalTo("validation_failed"));
        changeOrder(event, code, "1", List.of(Map.of("op", "add", "item_id", item, "voucher_code", "ONE"))).then()
                .statusCode(409).body("code", equalTo("voucher_exhausted"));
        assertThat(order(event, code).getInt("version")).isEqualTo(1);
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void aChangeThatNeedsWhatIsNotFreeChangesNothing() {
        String event = newEvent("change-full");
        long standard = newItem(event, "Standard", "10");
        long premium = newItem(event, "Premium", "25");
        newQuota(event, 5, List.of(standard));
        newQuota(event, 1, List.of(premium));
        checkout(event, cartWith(event, Map.of("item_id", premium))).then().statusCode(201);
        String code = checkout(event, cartWith(event, Map.of("item_id", standard))).then().statusCode(201).extract()
                .path("code");
        long position = order(event, code).getLong("positions[0].id");

        changeOrder(event, code, "0", List.of(Map.of("op", "change_item", "position_id", position, "item_id", premium)))
                .then().statusCode(409).body("code", equalTo("quota_exhausted"));
        JsonPath after = order(event, code);
        assertThat(after.getLong("positions[0].item_id")).isEqualTo(standard);
        assertThat(after.getInt("version")).isZero();
        Oracle.assertNeverOversold(sql, event);
    }

    /** Two items in one full quota: moving a position from one to the other grows nothing, so it is not refused. */
    @Test
    void aChangeWithinAFullQuotaNeedsNothingMore() {
        String event = newEvent("change-within");
        long early = newItem(event, "Early", "10");
        long late = newItem(event, "Late", "12");
        newQuota(event, 2, List.of(early, late));
        checkout(event, cartWith(event, Map.of("item_id", early))).then().statusCode(201);
        String code = checkout(event, cartWith(event, Map.of("item_id", early))).then().statusCode(201).extract()
                .path("code");
        long position = order(event, code).getLong("positions[0].id");
        changeOrder(event, code, "0", List.of(Map.of("op", "change_item", "position_id", position, "item_id", late)))
                .then().statusCode(200).body("positions[0].item_id", equalTo((int) late))
                .body("total", equalTo("12.00"));
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void onlyAPendingOrPaidOrderChangesAndOperationsAreChecked() {
        String event = newEvent("change-state");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        String code = checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201).extract()
                .path("code");
        long position = order(event, code).getLong("positions[0].id");
        changeOrder(event, code, "0", List.of(Map.of("op", "move", "position_id", position))).then().statusCode(400)
                .body("code", equalTo("validation_failed"));
        changeOrder(event, code, "0", List.of(Map.of("op", "change_seat", "position_id", position))).then()
                .statusCode(400).body("errors[0].field", equalTo("operations[0].seat_guid"));
        changeOrder(event, code, "0", List.of(Map.of("op", "add", "item_id", item, "position_id", position))).then()
                .statusCode(400).body("errors[0].field", equalTo("operations[0].position_id"));
        changeOrder(event, code, "0", List.of(Map.of("op", "cancel_position", "position_id", 999_999))).then()
                .statusCode(404);
        admin().post(ORDER + "/cancel", event, code).then().statusCode(200);
        changeOrder(event, code, "1", List.of(Map.of("op", "add", "item_id", item))).then().statusCode(409)
                .body("code", equalTo("order_state"));
        Oracle.assertNeverOversold(sql, event);
    }

    private static long pending(String event, long quota) {
        return admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota).then().statusCode(200)
                .extract().jsonPath().getLong("pending_orders");
    }
}

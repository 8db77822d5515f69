package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.availableNumber;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.changeOrder;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newBundle;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newQuotaOn;
import static io.ticketing.reservations.support.Api.newVoucher;
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
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * Where two features meet (contract section 3, "One rule for every change"): each case was answered 200 past a quota
 * or a voucher's uses before the change was judged by the same rule as a claim, with plain calls and no race.
 */
@QuarkusTest
class CrossingsTest {

    private static final String VOUCHER = "/api/v1/events/{event}/vouchers/{code}";
    private static final String DATE = "/api/v1/events/{event}/dates/{date}";
    private static final String QUOTA = "/api/v1/events/{event}/quotas/{quota}";

    @Inject
    Sql sql;

    /** An order change gives a canceled position's voucher use back once, and counts the adds against what is left. */
    @Test
    void anOrderChangeCountsTheVoucherUseItFreesOnce() {
        String event = newEvent("cross-change-voucher");
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 2, List.of(ticket));
        newVoucher(event, Map.of("code", "ONE", "max_usages", 1, "item_id", ticket, "block_quota", true));
        String code = checkout(event, cartWith(event, Map.of("item_id", ticket, "voucher_code", "ONE"))).then()
                .statusCode(201).extract().path("code");
        checkout(event, cartWith(event, Map.of("item_id", ticket))).then().statusCode(201);
        long withVoucher = order(event, code).getLong("positions[0].id");
        Map<String, Object> addWithVoucher = Map.of("op", "add", "item_id", ticket, "voucher_code", "ONE");

        changeOrder(event, code, "0", List.of(Map.of("op", "cancel_position", "position_id", withVoucher),
                addWithVoucher, addWithVoucher)).then().statusCode(409).body("code", equalTo("voucher_exhausted"));
        assertThat(redeemed(event, "ONE")).isEqualTo(1);
        assertThat(availableNumber(event, quota)).isZero();

        changeOrder(event, code, "0", List.of(Map.of("op", "cancel_position", "position_id", withVoucher),
                addWithVoucher)).then().statusCode(200).body("positions[0].voucher_code", equalTo("ONE"));
        assertThat(redeemed(event, "ONE")).isEqualTo(1);
        Oracle.assertNeverOversold(sql, event);
    }

    /** A voucher of no date that starts to block grows each date's quota by what it held on that date, not on all. */
    @Test
    void aVoucherThatStartsToBlockIsCheckedOnEachDateOnItsOwn() {
        String event = newEvent("cross-voucher-dates");
        long first = newDate(event, 4);
        long second = newDate(event, 5);
        long ticket = newItem(event, "Ticket", "10");
        long firstQuota = newQuotaOn(event, first, 10, List.of(ticket));
        newQuotaOn(event, second, 10, List.of(ticket));
        newVoucher(event, Map.of("code", "SEVEN", "max_usages", 7, "item_id", ticket));
        addToCart(event, newCart(event), Map.of("item_id", ticket, "date_id", second, "quantity", 5,
                "voucher_code", "SEVEN")).then().statusCode(201);
        checkout(event, cartWith(event, Map.of("item_id", ticket, "date_id", first, "quantity", 8))).then()
                .statusCode(201);

        String etag = admin().get(VOUCHER, event, "SEVEN").then().statusCode(200).extract().header("ETag");
        admin().header("If-Match", etag).body(Map.of("block_quota", true)).patch(VOUCHER, event, "SEVEN").then()
                .statusCode(409).body("code", equalTo("quota_exhausted"));
        assertThat(admin().get(VOUCHER, event, "SEVEN").then().extract().jsonPath().getBoolean("block_quota"))
                .isFalse();
        assertThat(availableNumber(event, firstQuota)).isEqualTo(2);
        Oracle.assertNeverOversold(sql, event);
    }

    /**
     * A blocking voucher of no date blocks on each date what it has not used there: a use given back on one date
     * (a cancel or an expiry, which nothing may refuse) must not raise its block on a date sold out meanwhile.
     */
    @Test
    void aVoucherUseGivenBackOnOneDateNeverRaisesItsBlockOnAnother() {
        String event = newEvent("cross-voucher-give-back");
        long first = newDate(event, 4);
        long second = newDate(event, 5);
        long ticket = newItem(event, "Ticket", "10");
        newQuotaOn(event, first, 10, List.of(ticket));
        long secondQuota = newQuotaOn(event, second, 10, List.of(ticket));
        newVoucher(event, Map.of("code", "THREE", "max_usages", 3, "item_id", ticket, "block_quota", true));
        String withVoucher = checkout(event, cartWith(event, Map.of("item_id", ticket, "date_id", first,
                "quantity", 3, "voucher_code", "THREE"))).then().statusCode(201).extract().path("code");
        assertThat(availableNumber(event, secondQuota)).isEqualTo(7);
        checkout(event, cartWith(event, Map.of("item_id", ticket, "date_id", second, "quantity", 7))).then()
                .statusCode(201);

        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, withVoucher).then().statusCode(200);
        Oracle.assertNeverOversold(sql, event);
        checkout(event, cartWith(event, Map.of("item_id", ticket, "date_id", second, "quantity", 3,
                "voucher_code", "THREE"))).then().statusCode(201);
        addToCart(event, newCart(event), Map.of("item_id", ticket, "date_id", second)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        Oracle.assertNeverOversold(sql, event);
    }

    /** A pass counts and is checked on a date off sale, so the date put back on sale is never past its quota. */
    @Test
    void aPassIsCheckedOnADateOffSale() {
        String event = newEvent("cross-pass-off-sale");
        long first = newDate(event, 4);
        long second = newDate(event, 5);
        long single = newItem(event, "Single", "10");
        long pass = newItem(event, Map.of("name", "Pass", "price", "25", "every_date", true));
        newQuotaOn(event, first, 5, List.of(single, pass));
        long secondQuota = newQuotaOn(event, second, 1, List.of(single, pass));
        checkout(event, cartWith(event, Map.of("item_id", single, "date_id", second))).then().statusCode(201);
        setActive(event, second, false);

        addToCart(event, newCart(event), Map.of("item_id", pass)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted")).body("quota_id", equalTo((int) secondQuota));
        setActive(event, second, true);
        assertThat(availableNumber(event, secondQuota)).isZero();
        Oracle.assertNeverOversold(sql, event);
    }

    /** Changing a position into a bundle brings what the bundle brings, checked; out of it takes them away. */
    @Test
    void anOrderChangeIntoABundleBringsItsPositionsAndOutOfItRemovesThem() {
        String event = newEvent("cross-change-bundle");
        long ticket = newItem(event, "Ticket", "10");
        long drink = newItem(event, "Drink", "4");
        long withDrink = newBundle(event, "Ticket with a drink", "13", drink, 1);
        newQuota(event, 10, List.of(ticket, withDrink));
        long drinks = newQuota(event, 1, List.of(drink));
        String code = checkout(event, cartWith(event, Map.of("item_id", ticket))).then().statusCode(201)
                .extract().path("code");
        long position = order(event, code).getLong("positions[0].id");

        JsonPath changed = changeOrder(event, code, "0", List.of(Map.of("op", "change_item", "position_id", position,
                "item_id", withDrink))).then().statusCode(200).extract().jsonPath();
        assertThat(changed.getList("positions.item_id", Long.class)).containsExactlyInAnyOrder(withDrink, drink);
        assertThat(changed.getLong("positions.find { it.item_id == " + drink + " }.bundled_in")).isEqualTo(position);
        assertThat(availableNumber(event, drinks)).isZero();
        addToCart(event, newCart(event), Map.of("item_id", drink)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        String other = checkout(event, cartWith(event, Map.of("item_id", ticket))).then().statusCode(201)
                .extract().path("code");
        changeOrder(event, other, "0", List.of(Map.of("op", "change_item", "position_id",
                order(event, other).getLong("positions[0].id"), "item_id", withDrink))).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));

        changeOrder(event, code, "1", List.of(Map.of("op", "change_item", "position_id", position, "item_id", ticket)))
                .then().statusCode(200).body("positions.size()", equalTo(1))
                .body("positions[0].item_id", equalTo((int) ticket));
        assertThat(availableNumber(event, drinks)).isEqualTo(1);
        Oracle.assertNeverOversold(sql, event);
    }

    /**
     * A position changed keeps its voucher's use redeemed, so the block it used does not come back when the old
     * position leaves: the new one, and what its bundle brings, must find room (seed 87799157383122 of the property
     * test sold 5 of 4 so).
     */
    @Test
    void aChangeThatKeepsABlockingVouchersUseCountsThePositionItRewrites() {
        String event = newEvent("cross-change-kept-use");
        long ticket = newItem(event, "Ticket", "10");
        long pair = newBundle(event, "Two tickets", "18", ticket, 2);
        long quota = newQuota(event, 4, List.of(ticket, pair));
        newVoucher(event, Map.of("code", "HELD", "quota_id", quota, "block_quota", true, "max_usages", 1));
        String code = checkout(event, cartWith(event, Map.of("item_id", ticket, "voucher_code", "HELD"))).then()
                .statusCode(201).extract().path("code");
        long position = order(event, code).getLong("positions[0].id");
        String other = checkout(event, cartWith(event, Map.of("item_id", ticket, "quantity", 2))).then()
                .statusCode(201).extract().path("code");
        List<Map<String, Object>> intoThePair = List.of(Map.of("op", "change_item", "position_id", position,
                "item_id", pair));

        changeOrder(event, code, "0", intoThePair).then().statusCode(409).body("code", equalTo("quota_exhausted"));
        assertThat(availableNumber(event, quota)).isOne();
        changeOrder(event, other, "0", List.of(Map.of("op", "cancel_position", "position_id",
                order(event, other).getLong("positions[0].id")))).then().statusCode(200);
        changeOrder(event, code, "0", intoThePair).then().statusCode(200).body("positions.size()", equalTo(3));
        assertThat(availableNumber(event, quota)).isZero();
        assertThat(redeemed(event, "HELD")).isEqualTo(1);
        Oracle.assertNeverOversold(sql, event);
    }

    /**
     * On a quota of a date, a voucher of no date blocks what it has not used on that date: the use leaves with the
     * old position and comes back with the new one, which therefore needs no room of its own.
     */
    @Test
    void aChangeOnADateCountsTheVoucherUseItKeepsOnce() {
        String event = newEvent("cross-change-kept-use-date");
        long date = newDate(event, 4);
        long ticket = newItem(event, "Ticket", "10");
        long pair = newBundle(event, "Two tickets", "18", ticket, 2);
        long quota = newQuotaOn(event, date, 3, List.of(ticket, pair));
        newVoucher(event, Map.of("code", "HELD", "quota_id", quota, "block_quota", true, "max_usages", 1));
        String code = checkout(event, cartWith(event, Map.of("item_id", ticket, "date_id", date,
                "voucher_code", "HELD"))).then().statusCode(201).extract().path("code");

        changeOrder(event, code, "0", List.of(Map.of("op", "change_item", "position_id",
                order(event, code).getLong("positions[0].id"), "item_id", pair))).then().statusCode(200);
        assertThat(availableNumber(event, quota)).isZero();
        Oracle.assertNeverOversold(sql, event);
    }

    /**
     * An admin edit that makes a quota count what was sold before (a quota created over it, items joining it, made
     * finite) must have room for it, as a claim must; shrinking grows nothing it counts and may close a sale.
     */
    @Test
    void aQuotaThatStartsToCountWhatWasSoldMustHaveRoomForIt() {
        String event = newEvent("cross-quota-edits");
        long ticket = newItem(event, "Ticket", "10");
        long other = newItem(event, "Other", "10");
        newQuota(event, 10, List.of(ticket, other));
        checkout(event, cartWith(event, Map.of("item_id", ticket, "quantity", 3))).then().statusCode(201);

        Map<String, Object> tooSmall = new HashMap<>(Map.of("name", "Floor", "size", 2, "items", List.of(ticket)));
        admin().body(tooSmall).post("/api/v1/events/{event}/quotas", event).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        long floor = newQuota(event, 2, List.of(other));
        admin().header("If-Match", "\"0\"").body(Map.of("items", List.of(other, ticket)))
                .patch(QUOTA, event, floor).then().statusCode(409).body("code", equalTo("quota_exhausted"));
        long unlimited = newQuota(event, null, List.of(ticket));
        admin().header("If-Match", "\"0\"").body(Map.of("size", 1)).patch(QUOTA, event, unlimited).then()
                .statusCode(409).body("code", equalTo("quota_exhausted"));
        assertThat(sql.number("SELECT count(*) FROM quota_items WHERE quota_id = ?1", floor)).isEqualTo(1);

        admin().header("If-Match", "\"0\"").body(Map.of("size", 3)).patch(QUOTA, event, unlimited).then()
                .statusCode(200);
        admin().header("If-Match", "\"1\"").body(Map.of("size", 0)).patch(QUOTA, event, unlimited).then()
                .statusCode(200);
        addToCart(event, newCart(event), Map.of("item_id", ticket)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
    }

    private static int redeemed(String event, String voucher) {
        return admin().get(VOUCHER, event, voucher).then().statusCode(200).extract().jsonPath().getInt("redeemed");
    }

    private static void setActive(String event, long date, boolean active) {
        String etag = admin().get(DATE, event, date).then().statusCode(200).extract().header("ETag");
        admin().header("If-Match", etag).body(Map.of("active", active)).patch(DATE, event, date).then()
                .statusCode(200);
    }
}

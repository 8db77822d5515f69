package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newVoucher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * Ways past a quota's size with plain API calls and no race (issue 25), each the contract's section 1 or 2 at an
 * edge: a blocking voucher's holds once it stops blocking, a voucher that blocks in one quota of its item but not
 * another, and an unlimited quota made finite under a buyer who counted it as unlimited.
 */
@QuarkusTest
class QuotaEdgesTest {

    private static final String QUOTA = "/api/v1/events/{event}/quotas/{quota}";

    @Inject
    Sql sql;

    @Inject
    RacePauses pauses;

    /** Quota of 10: five holds with a blocking voucher for 5 uses, five without. The quota has nothing left. */
    private record FullQuota(String event, long item, long quota, List<String> voucherCarts) {
    }

    private FullQuota fullQuotaWithBlockingVoucher() {
        String event = newEvent("edge-voucher");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(item));
        newVoucher(event, Map.of("code", "BLOCK5", "max_usages", 5, "item_id", item, "block_quota", true,
                "valid_until", "2099-01-01T00:00:00Z"));
        List<String> voucherCarts = java.util.stream.IntStream.range(0, 5)
                .mapToObj(i -> cartWith(event, Map.of("item_id", item, "voucher_code", "BLOCK5"))).toList();
        for (int i = 0; i < 5; i++) {
            cartWith(event, Map.of("item_id", item));
        }
        admin().get(QUOTA + "/availability", event, quota).then().statusCode(200).body("available_number", equalTo(0));
        return new FullQuota(event, item, quota, voucherCarts);
    }

    private static void assertSoldOut(FullQuota full) {
        admin().get(QUOTA + "/availability", full.event(), full.quota()).then().statusCode(200)
                .body("available_number", equalTo(0));
        addToCart(full.event(), newCart(full.event()), Map.of("item_id", full.item())).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
    }

    @Test
    void aBlockingVoucherPastItsDeadlineStillCountsItsLiveHolds() {
        FullQuota full = fullQuotaWithBlockingVoucher();
        // Its valid_until passes: the holds it made stay live, and now count as carts.
        sql.update("UPDATE vouchers SET valid_until = now() - interval '1 second' WHERE code = 'BLOCK5'"
                + " AND event_id = (SELECT id FROM events WHERE slug = ?1)", full.event());
        assertSoldOut(full);
        for (String cart : full.voucherCarts()) {
            checkout(full.event(), cart).then().statusCode(201);
        }
        assertSoldOut(full);
        Oracle.assertNeverOversold(sql, full.event());
    }

    @Test
    void turningBlockQuotaOffAndOnKeepsItsHoldsCounted() {
        FullQuota full = fullQuotaWithBlockingVoucher();
        patchVoucher(full.event(), "BLOCK5", Map.of("block_quota", false)).then().statusCode(200);
        assertSoldOut(full);
        Oracle.assertNeverOversold(sql, full.event());
        // On again: its five holds move from carts back into the block, which grows by nothing.
        patchVoucher(full.event(), "BLOCK5", Map.of("block_quota", true)).then().statusCode(200);
        assertSoldOut(full);
        Oracle.assertNeverOversold(sql, full.event());
    }

    @Test
    void aVoucherBlockingInOneQuotaIsCheckedAgainstTheItemsOtherQuotas() {
        String event = newEvent("edge-cap");
        long item = newItem(event, "Ticket", "10");
        long large = newQuota(event, 100, List.of(item));
        long cap = newQuota(event, 10, List.of(item));
        newVoucher(event, Map.of("code", "LARGE5", "max_usages", 5, "quota_id", large, "block_quota", true));
        // Five of the cap's ten go to buyers; the voucher blocks its five in the large quota only.
        for (int i = 0; i < 10; i++) {
            cartWith(event, Map.of("item_id", item));
        }
        admin().get(QUOTA + "/availability", event, cap).then().statusCode(200).body("available_number", equalTo(0));
        addToCart(event, newCart(event), Map.of("item_id", item, "voucher_code", "LARGE5")).then().statusCode(409)
                .body("code", equalTo("quota_exhausted")).body("quota_id", equalTo((int) cap));
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void makingAnUnlimitedQuotaFiniteWaitsForTheBuyerWhoCountedItUnlimited() throws Exception {
        String event = newEvent("edge-finite");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, null, List.of(item));
        String first = newCart(event);
        long eventId = sql.number("SELECT id FROM events WHERE slug = ?1", event);
        CompletableFuture<Response> firstHold;
        Response edit;
        // The first buyer is held after its checks, until the admin's edit has checked too or waits for a lock.
        try (RacePauses.Race race = pauses.race(eventId, 2)) {
            firstHold = CompletableFuture.supplyAsync(() -> addToCart(event, first, Map.of("item_id", item)));
            race.awaitFirstChecked();
            edit = CompletableFuture.supplyAsync(() -> admin().header("If-Match", "\"0\"")
                    .body(Map.of("size", 1)).patch(QUOTA, event, quota)).get(20, TimeUnit.SECONDS);
            // A buyer after the edit: with the edit ordered after the first hold, the one place is taken.
            Response second = addToCart(event, newCart(event), Map.of("item_id", item));
            assertThat(firstHold.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
            assertThat(second.statusCode()).as(second.asString()).isEqualTo(409);
            assertThat(second.jsonPath().getString("code")).isEqualTo("quota_exhausted");
        }
        assertThat(edit.statusCode()).isEqualTo(200);
        Oracle.assertNeverOversold(sql, event);
    }

    private static Response patchVoucher(String event, String code, Map<String, Object> changes) {
        String etag = admin().get("/api/v1/events/{event}/vouchers/{code}", event, code).then().statusCode(200)
                .extract().header("ETag");
        return admin().header("If-Match", etag).body(changes).patch("/api/v1/events/{event}/vouchers/{code}", event,
                code);
    }
}

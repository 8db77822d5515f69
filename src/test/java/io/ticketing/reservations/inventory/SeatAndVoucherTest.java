package io.ticketing.reservations.inventory;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.SettableClock;

@QuarkusTest
class SeatAndVoucherTest {

    @Inject
    SettableClock clock;

    private static final String SEATS = "/api/v1/events/{event}/seats";
    private static final String VOUCHERS = "/api/v1/events/{event}/vouchers";

    @Test
    void shouldCreateASeatingPlanInBulkAndListOnlyFreeSeatsOnRequest() {
        String event = newEvent("seats");
        long item = newSeatedItem(event, "Seat", "40");
        newQuota(event, 10, List.of(item));
        admin().body(Map.of("seats", List.of(Map.of("guid", "A-1", "name", "A 1", "item_id", item),
                Map.of("guid", "A-2", "name", "A 2", "item_id", item),
                Map.of("guid", "A-3", "name", "A 3", "item_id", item, "blocked", true))))
                .post(SEATS, event).then().statusCode(201).body("seats", hasSize(3));
        cartWith(event, Map.of("item_id", item, "seat_guid", "A-1"));
        storefront().get(SEATS, event).then().statusCode(200).body("data.guid", contains("A-1", "A-2", "A-3"))
                .body("data.available", contains(false, true, false));
        storefront().get(SEATS + "?available=true", event).then().body("data.guid", contains("A-2"));
        addToCart(event, newCart(event), Map.of("item_id", item, "seat_guid", "A-3")).then().statusCode(409)
                .body("code", equalTo("seat_unavailable"));
    }

    @Test
    void shouldRefuseDuplicateSeatsAndSeatsForUnseatedItems() {
        String event = newEvent("seats-bad");
        long seated = newSeatedItem(event, "Seat", "40");
        long standing = newItem(event, "Standing", "10");
        newSeats(event, seated, "B", 1);
        admin().body(Map.of("seats", List.of(Map.of("guid", "B-1", "name", "again", "item_id", seated))))
                .post(SEATS, event).then().statusCode(409).body("code", equalTo("seat_exists"));
        admin().body(Map.of("seats", List.of(Map.of("guid", "C-1", "name", "c", "item_id", seated),
                Map.of("guid", "C-1", "name", "c", "item_id", seated))))
                .post(SEATS, event).then().statusCode(400).body("errors[0].field", equalTo("seats[1].guid"));
        admin().body(Map.of("seats", List.of(Map.of("guid", "D-1", "name", "d", "item_id", standing))))
                .post(SEATS, event).then().statusCode(400).body("errors[0].field", equalTo("seats[0].item_id"));
        storefront().get(SEATS, event).then().body("data", hasSize(1));
    }

    @Test
    void shouldFindVouchersIgnoringCaseAndRefuseDuplicateCodes() {
        String event = newEvent("vouchers");
        long item = newItem(event, "Ticket", "10");
        newVoucher(event, Map.of("code", "Spring-25", "max_usages", 3, "item_id", item));
        admin().get(VOUCHERS + "/{code}", event, "SPRING-25").then().statusCode(200).header("ETag", "\"0\"")
                .body("code", equalTo("Spring-25")).body("max_usages", equalTo(3)).body("redeemed", equalTo(0))
                .body("item_id", equalTo((int) item));
        admin().body(Map.of("code", "spring-25")).post(VOUCHERS, event).then().statusCode(409)
                .body("code", equalTo("voucher_code_taken"));
        admin().body(Map.of("code", "X", "max_usages", 0)).post(VOUCHERS, event).then().statusCode(400)
                .body("errors[0].field", equalTo("max_usages"));
        admin().get(VOUCHERS + "/{code}", event, "nope").then().statusCode(404).body("code", equalTo("not_found"));
    }

    @Test
    void aVoucherExpiresByTheServicesClock() {
        String event = newEvent("voucher-clock");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
        newVoucher(event, Map.of("code", "UNTIL-2030", "valid_until", "2030-01-01T00:00:00Z"));
        String cart = newCart(event);
        try {
            clock.set(Instant.parse("2030-01-01T00:00:01Z"));
            addToCart(event, cart, Map.of("item_id", item, "voucher_code", "UNTIL-2030")).then().statusCode(409)
                    .body("code", equalTo("voucher_expired"));
        } finally {
            clock.reset();
        }
        addToCart(event, cart, Map.of("item_id", item, "voucher_code", "UNTIL-2030")).then().statusCode(201);
    }

    @Test
    void shouldAcceptAVoucherOnlyForItsItemWhileValidAndNotUsedUp() {
        String event = newEvent("voucher-rules");
        long item = newItem(event, "Ticket", "10");
        long other = newItem(event, "Other", "10");
        newQuota(event, 100, List.of(item, other));
        newVoucher(event, Map.of("code", "TWICE", "max_usages", 2, "item_id", item));
        newVoucher(event, Map.of("code", "OLD", "valid_until", "2020-01-01T00:00:00Z"));
        String cart = newCart(event);
        addToCart(event, cart, Map.of("item_id", other, "voucher_code", "TWICE")).then().statusCode(409)
                .body("code", equalTo("voucher_invalid"));
        addToCart(event, cart, Map.of("item_id", item, "voucher_code", "NOSUCH")).then().statusCode(409)
                .body("code", equalTo("voucher_invalid"));
        addToCart(event, cart, Map.of("item_id", item, "voucher_code", "OLD")).then().statusCode(409)
                .body("code", equalTo("voucher_expired"));
        addToCart(event, cart, Map.of("item_id", item, "voucher_code", "TWICE", "quantity", 3)).then().statusCode(409)
                .body("code", equalTo("voucher_exhausted"));
        addToCart(event, cart, Map.of("item_id", item, "voucher_code", "TWICE")).then().statusCode(201);
        checkout(event, cart).then().statusCode(201);
        cartWith(event, Map.of("item_id", item, "voucher_code", "twice"));
        addToCart(event, newCart(event), Map.of("item_id", item, "voucher_code", "TWICE")).then().statusCode(409)
                .body("code", equalTo("voucher_exhausted"));
    }

    @Test
    void shouldKeepQuotaForABlockingVoucherSoOnlyItsHolderGetsIt() {
        String event = newEvent("voucher-block");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 3, List.of(item));
        newVoucher(event, Map.of("code", "PRESS", "max_usages", 2, "item_id", item, "block_quota", true));
        admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().body("blocking_vouchers", equalTo(2)).body("available_number", equalTo(1));
        cartWith(event, Map.of("item_id", item));
        addToCart(event, newCart(event), Map.of("item_id", item)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        String press = cartWith(event, Map.of("item_id", item, "voucher_code", "PRESS", "quantity", 2));
        checkout(event, press).then().statusCode(201);
        admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().body("blocking_vouchers", equalTo(0)).body("pending_orders", equalTo(2))
                .body("cart_positions", equalTo(1)).body("available_number", equalTo(0));
        admin().body(Map.of("code", "MORE", "max_usages", 1, "quota_id", quota, "block_quota", true))
                .post(VOUCHERS, event).then().statusCode(409).body("code", equalTo("quota_exhausted"));
    }

    @Test
    void shouldHoldASeatForItsSeatBoundVoucher() {
        String event = newEvent("voucher-seat");
        long item = newSeatedItem(event, "Seat", "40");
        newQuota(event, 10, List.of(item));
        newSeats(event, item, "V", 2);
        newVoucher(event, Map.of("code", "BOX", "seat_guid", "V-1"));
        storefront().get(SEATS + "?available=true", event).then().body("data.guid", contains("V-2"));
        addToCart(event, newCart(event), Map.of("item_id", item, "seat_guid", "V-1")).then().statusCode(409)
                .body("code", equalTo("seat_unavailable"));
        addToCart(event, newCart(event), Map.of("item_id", item, "seat_guid", "V-2", "voucher_code", "BOX"))
                .then().statusCode(409).body("code", equalTo("voucher_invalid"));
        addToCart(event, newCart(event), Map.of("item_id", item, "seat_guid", "V-1", "voucher_code", "BOX"))
                .then().statusCode(201);
        admin().body(Map.of("code", "BOX2", "seat_guid", "V-1")).post(VOUCHERS, event).then().statusCode(409)
                .body("code", equalTo("seat_unavailable"));
    }

    @Test
    void shouldShowStorefrontsTheLeastThatIsLeftPerItem() {
        String event = newEvent("storefront");
        long ticket = newItem(event, "Ticket", "10");
        long free = newItem(event, "Free", "0");
        long seat = newSeatedItem(event, "Seat", "40");
        newQuota(event, 5, List.of(ticket, seat));
        newQuota(event, 3, List.of(ticket));
        newQuota(event, null, List.of(free));
        newSeats(event, seat, "S", 2);
        cartWith(event, Map.of("item_id", ticket));
        storefront().get("/api/v1/events/{event}/availability", event).then().statusCode(200)
                .body("items.item_id", contains((int) ticket, (int) free, (int) seat))
                .body("items.available_number", contains(2, null, 2))
                .body("items.available", contains(true, true, true));
    }
}

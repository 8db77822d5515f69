package io.ticketing.reservations.waitinglist;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static io.ticketing.reservations.support.Api.storefrontAvailable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * The waiting list (contract section 9), through the API as a storefront and an admin use it, with the task workers
 * making the offers as in the service: who may join, the order of offers, freed capacity reserved for the list, and
 * an offer's life from the voucher to the order, its cancel and its expiry.
 */
@QuarkusTest
class WaitingListTest {

    private static final String LIST = "/api/v1/events/{event}/waiting_list";
    private static final Duration OFFER_WITHIN = Duration.ofSeconds(5);

    @Inject
    Sql sql;

    /** An event with its list on and one item whose quota of {@code size} is sold out by pending orders. */
    private record SoldOut(String event, long item, long quota, List<String> orders) {
    }

    private SoldOut soldOut(String prefix, int size) {
        String event = newEvent(prefix);
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true)))
                .patch("/api/v1/events/{event}", event).then().statusCode(200)
                .body("waiting_list.enabled", equalTo(true)).body("waiting_list.offer_ttl_seconds", equalTo(86400));
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, size, List.of(item));
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            orders.add(checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201).extract()
                    .path("code"));
        }
        return new SoldOut(event, item, quota, orders);
    }

    private static Response join(String event, long item, int quantity, String email) {
        return storefront().body(Map.of("item_id", item, "quantity", quantity, "email", email)).post(LIST, event);
    }

    private static String joined(String event, long item, int quantity, String email) {
        return join(event, item, quantity, email).then().statusCode(201).body("status", equalTo("waiting"))
                .extract().path("id");
    }

    private static JsonPath entry(String event, String id) {
        return storefront().get(LIST + "/{entry}", event, id).then().statusCode(200).extract().jsonPath();
    }

    private static void cancel(String event, String order) {
        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, order).then().statusCode(200);
    }

    private static void awaitStatus(String event, String id, String status) {
        Eventually.within(OFFER_WITHIN, "entry " + id + " " + status,
                () -> status.equals(entry(event, id).getString("status")));
    }

    @Test
    void onlyBuyersOfAnItemThatCannotSellMayJoinOncePerEmail() {
        String closed = newEvent("list-off");
        long ticket = newItem(closed, "Ticket", "10");
        newQuota(closed, 0, List.of(ticket));
        join(closed, ticket, 1, "a@example.com").then().statusCode(409).body("code", equalTo("waiting_list_off"));

        SoldOut sale = soldOut("list-join", 2);
        long other = newItem(sale.event(), "Other", "10");
        newQuota(sale.event(), 5, List.of(other));
        join(sale.event(), other, 2, "a@example.com").then().statusCode(409).body("code", equalTo("item_available"))
                .body("available_number", equalTo(5));
        join(sale.event(), sale.item(), 11, "a@example.com").then().statusCode(400)
                .body("code", equalTo("validation_failed"));
        joined(sale.event(), sale.item(), 2, "a@example.com");
        join(sale.event(), sale.item(), 1, "A@example.com").then().statusCode(409)
                .body("code", equalTo("already_waiting"));
        join(sale.event(), 999_999, 1, "b@example.com").then().statusCode(404);
    }

    @Test
    void positionsFollowPriorityThenAge() {
        SoldOut sale = soldOut("list-order", 1);
        String first = joined(sale.event(), sale.item(), 1, "first@example.com");
        String second = joined(sale.event(), sale.item(), 1, "second@example.com");
        String third = joined(sale.event(), sale.item(), 1, "third@example.com");
        assertThat(List.of(entry(sale.event(), first).getLong("position"),
                entry(sale.event(), second).getLong("position"), entry(sale.event(), third).getLong("position")))
                .containsExactly(0L, 1L, 2L);
        admin().header("If-Match", "\"1\"").body(Map.of("priority", 5)).patch(LIST + "/{entry}", sale.event(), third)
                .then().statusCode(412).body("code", equalTo("version_conflict"));
        admin().header("If-Match", "\"0\"").body(Map.of("priority", 5)).patch(LIST + "/{entry}", sale.event(), third)
                .then().statusCode(200).body("position", equalTo(0)).body("priority", equalTo(5));
        assertThat(entry(sale.event(), first).getLong("position")).isEqualTo(1);
        JsonPath page = admin().get(LIST + "?status=waiting&limit=2", sale.event()).then().statusCode(200).extract()
                .jsonPath();
        assertThat(page.getList("data.id")).containsExactly(first, second);
        assertThat(page.getString("next_cursor")).isNotNull();
    }

    /**
     * pretix #1163 and #1405 cannot happen: the order bought with an offer is canceled, the offer's voucher stays
     * spent, and the capacity goes to the next entry. Meanwhile everyone else sees nothing left.
     */
    @Test
    void freedCapacityGoesToTheListInOrderAndACanceledOfferOrderNeverRevivesItsVoucher() {
        SoldOut sale = soldOut("list-offer", 2);
        String first = joined(sale.event(), sale.item(), 1, "first@example.com");
        String second = joined(sale.event(), sale.item(), 1, "second@example.com");

        cancel(sale.event(), sale.orders().get(0));
        awaitStatus(sale.event(), first, "offered");
        JsonPath offered = entry(sale.event(), first);
        String code = offered.getString("offer.voucher_code");
        assertThat(offered.getString("offer.valid_until")).isNotNull();
        assertThat(entry(sale.event(), second).getString("status")).isEqualTo("waiting");
        storefrontSees(sale, 0);
        addToCart(sale.event(), newCart(sale.event()), Map.of("item_id", sale.item())).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));

        String cart = cartWith(sale.event(), Map.of("item_id", sale.item(), "voucher_code", code));
        String order = checkout(sale.event(), cart).then().statusCode(201).extract().path("code");
        assertThat(entry(sale.event(), first).getString("status")).isEqualTo("redeemed");

        cancel(sale.event(), order);
        addToCart(sale.event(), newCart(sale.event()), Map.of("item_id", sale.item(), "voucher_code", code))
                .then().statusCode(409).body("code", equalTo("voucher_exhausted"));
        awaitStatus(sale.event(), second, "offered");
        assertThat(entry(sale.event(), first).getString("status")).isEqualTo("redeemed");
        Oracle.assertNeverOversold(sql, sale.event());
    }

    /** No overtaking: while the first entry's quantity does not fit, the one behind it gets nothing. */
    @Test
    void anEntryThatDoesNotFitIsNotOvertaken() {
        SoldOut sale = soldOut("list-fit", 3);
        String two = joined(sale.event(), sale.item(), 2, "two@example.com");
        String one = joined(sale.event(), sale.item(), 1, "one@example.com");
        cancel(sale.event(), sale.orders().get(0));
        awaitNoTaskLeft(sale);
        assertThat(entry(sale.event(), two).getString("status")).isEqualTo("waiting");
        assertThat(entry(sale.event(), one).getString("status")).isEqualTo("waiting");
        storefrontSees(sale, 0);

        cancel(sale.event(), sale.orders().get(1));
        awaitStatus(sale.event(), two, "offered");
        assertThat(entry(sale.event(), two).getString("status")).isEqualTo("offered");
        assertThat(entry(sale.event(), one).getString("status")).isEqualTo("waiting");
        cancel(sale.event(), sale.orders().get(2));
        awaitStatus(sale.event(), one, "offered");
        Oracle.assertNeverOversold(sql, sale.event());
    }

    /** An offer not used by its deadline expires, and what it held goes to the next entry. */
    @Test
    void anUnusedOfferExpiresAndPassesItsCapacityOn() {
        SoldOut sale = soldOut("list-expiry", 1);
        admin().header("If-Match", "\"1\"")
                .body(Map.of("waiting_list", Map.of("enabled", true, "offer_ttl_seconds", 1)))
                .patch("/api/v1/events/{event}", sale.event()).then().statusCode(200);
        String first = joined(sale.event(), sale.item(), 1, "first@example.com");
        String second = joined(sale.event(), sale.item(), 1, "second@example.com");
        cancel(sale.event(), sale.orders().get(0));
        awaitStatus(sale.event(), first, "offered");
        awaitStatus(sale.event(), first, "expired");
        awaitStatus(sale.event(), second, "offered");
        Oracle.assertNeverOversold(sql, sale.event());
    }

    /** Leaving the list gives an unused offer back at once, to the next entry. */
    @Test
    void leavingWithAnOfferGivesItToTheNextEntry() {
        SoldOut sale = soldOut("list-leave", 1);
        String first = joined(sale.event(), sale.item(), 1, "first@example.com");
        String second = joined(sale.event(), sale.item(), 1, "second@example.com");
        cancel(sale.event(), sale.orders().get(0));
        awaitStatus(sale.event(), first, "offered");
        String code = entry(sale.event(), first).getString("offer.voucher_code");
        storefront().delete(LIST + "/{entry}", sale.event(), first).then().statusCode(204);
        assertThat(entry(sale.event(), first).getString("status")).isEqualTo("canceled");
        awaitStatus(sale.event(), second, "offered");
        addToCart(sale.event(), newCart(sale.event()), Map.of("item_id", sale.item(), "voucher_code", code))
                .then().statusCode(409).body("code", equalTo("voucher_expired"));
        storefront().delete(LIST + "/{entry}", sale.event(), first).then().statusCode(204);
        storefront().delete(LIST + "/{entry}", sale.event(), "no-such-entry-anywhere-x").then().statusCode(404);
        Oracle.assertNeverOversold(sql, sale.event());
    }

    /** What waits is kept from everyone else: a quota with 3 free and 2 waiting sells 1 to a buyer off the list. */
    @Test
    void whatTheListWaitsForIsNotForSale() {
        SoldOut sale = soldOut("list-reserve", 4);
        joined(sale.event(), sale.item(), 2, "pair@example.com");
        admin().header("If-Match", "\"1\"").body(Map.of("waiting_list", Map.of("enabled", false)))
                .patch("/api/v1/events/{event}", sale.event()).then().statusCode(200);
        // With the list off no offer is made at once; the sweep would make it, and is not run here.
        for (int i = 0; i < 3; i++) {
            cancel(sale.event(), sale.orders().get(i));
        }
        admin().get("/api/v1/events/{event}/quotas/{quota}/availability", sale.event(), sale.quota()).then()
                .statusCode(200).body("available_number", equalTo(3)).body("waiting_list", equalTo(2));
        storefrontSees(sale, 1);
        addToCart(sale.event(), newCart(sale.event()), Map.of("item_id", sale.item(), "quantity", 2)).then()
                .statusCode(409).body("code", equalTo("quota_exhausted")).body("available_number", equalTo(1));
        addToCart(sale.event(), newCart(sale.event()), Map.of("item_id", sale.item())).then().statusCode(201);
        Oracle.assertNeverOversold(sql, sale.event());
    }

    private static void storefrontSees(SoldOut sale, int left) {
        assertThat(storefrontAvailable(sale.event(), sale.item())).as("available_number").isEqualTo(left);
    }

    /** The offer runs the cancels queued have all ended: nothing more will be offered until something changes. */
    private void awaitNoTaskLeft(SoldOut sale) {
        long eventId = sql.number("SELECT id FROM events WHERE slug = ?1", sale.event());
        Eventually.within(OFFER_WITHIN, "the offer runs of event " + eventId,
                () -> sql.number("SELECT count(*) FROM tasks WHERE kind = 'waiting_list.offer' AND payload = ?1"
                        + " AND status <> 'done' AND run_at <= now()", Long.toString(eventId)) == 0);
    }
}

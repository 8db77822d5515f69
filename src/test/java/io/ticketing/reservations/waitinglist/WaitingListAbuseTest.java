package io.ticketing.reservations.waitinglist;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.buyerToken;
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
import static org.hamcrest.Matchers.notNullValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * The waiting list in a browser's hands (contract section 9, added 2026-11-26): the storefront token that joins it
 * sits in browsers, so a join needs an item on sale but for capacity, entries of an item taken off sale hold nothing
 * back while it is off, and joins are limited per client address and per buyer as queue tickets are.
 */
@QuarkusTest
class WaitingListAbuseTest {

    private static final String EVENT = "/api/v1/events/{event}";
    private static final String LIST = EVENT + "/waiting_list";

    @Inject
    Sql sql;

    private static String eventWithList(String prefix) {
        String event = newEvent(prefix);
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true))).patch(EVENT, event)
                .then().statusCode(200);
        return event;
    }

    private static Response join(String event, String address, long item, int quantity, String email) {
        return storefront().header("X-Forwarded-For", address)
                .body(Map.of("item_id", item, "quantity", quantity, "email", email)).post(LIST, event);
    }

    private static void putOnSale(String event, long item, boolean active, int version) {
        admin().header("If-Match", "\"" + version + "\"").body(Map.of("active", active))
                .patch(EVENT + "/items/{item}", event, item).then().statusCode(200).body("active", equalTo(active));
    }

    /**
     * Issue 40, bug 5, as it was measured: two joins of ten places of an inactive item that shares a quota of 20 with
     * a ticket on sale closed the ticket's sale for good, since offers skip inactive items and nothing cleared them.
     */
    @Test
    void joinsOfAnItemOffSaleNeverCloseTheSaleOfTheItemBesideIt() {
        String event = eventWithList("list-off-sale");
        long ticket = newItem(event, "Ticket", "10");
        long backstage = newItem(event, "Backstage", "10");
        newQuota(event, 20, List.of(ticket, backstage));
        putOnSale(event, backstage, false, 0);

        List<Response> joins = new ArrayList<>();
        for (String email : List.of("first@example.com", "second@example.com")) {
            joins.add(join(event, "198.51.100.60", backstage, 10, email));
        }
        addToCart(event, newCart(event), Map.of("item_id", ticket, "quantity", 20)).then().statusCode(201);
        for (Response refused : joins) {
            refused.then().statusCode(409).contentType("application/problem+json")
                    .body("code", equalTo("item_unavailable")).body("item_id", equalTo((int) backstage));
        }
        assertThat(sql.number("SELECT count(*) FROM waiting_list_entries WHERE item_id = ?1", backstage))
                .as("entries of the item off sale").isZero();
    }

    @Test
    void anItemInNoQuotaHasNoWaitingList() {
        String event = eventWithList("list-no-quota");
        long loose = newItem(event, "Loose", "10");
        join(event, "198.51.100.61", loose, 1, "a@example.com").then().statusCode(409)
                .body("code", equalTo("item_unavailable"));
    }

    /**
     * Entries waiting for an item that is then taken off sale stop holding capacity back at once, and hold it back
     * again when it is put back on sale; meanwhile they keep their place.
     */
    @Test
    void anItemTakenOffSaleHoldsNothingBackUntilItIsBackOnSale() {
        String event = eventWithList("list-back-on-sale");
        long ticket = newItem(event, "Ticket", "10");
        long backstage = newItem(event, "Backstage", "10");
        long quota = newQuota(event, 4, List.of(ticket, backstage));
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            orders.add(checkout(event, cartWith(event, Map.of("item_id", ticket))).then().statusCode(201).extract()
                    .path("code"));
        }
        String entry = join(event, "198.51.100.62", backstage, 3, "fan@example.com").then().statusCode(201).extract()
                .path("id");
        // With the list off no offer is made at once: what the cancels free stays free, to be held back or not.
        admin().header("If-Match", "\"1\"").body(Map.of("waiting_list", Map.of("enabled", false))).patch(EVENT, event)
                .then().statusCode(200);
        orders.subList(0, 3).forEach(code -> admin().post(EVENT + "/orders/{code}/cancel", event, code).then()
                .statusCode(200));
        assertThat(storefrontAvailable(event, ticket)).as("left while the entry holds 3 of 3 back").isZero();

        putOnSale(event, backstage, false, 0);
        admin().get(EVENT + "/quotas/{quota}/availability", event, quota).then().statusCode(200)
                .body("available_number", equalTo(3)).body("waiting_list", equalTo(0));
        assertThat(storefrontAvailable(event, ticket)).as("left while the item waited for is off sale").isEqualTo(3);
        Oracle.assertNeverOversold(sql, event);

        putOnSale(event, backstage, true, 1);
        admin().get(EVENT + "/quotas/{quota}/availability", event, quota).then().statusCode(200)
                .body("available_number", equalTo(3)).body("waiting_list", equalTo(3));
        assertThat(storefrontAvailable(event, ticket)).as("left once it is back on sale").isZero();
        addToCart(event, newCart(event), Map.of("item_id", ticket)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        storefront().get(LIST + "/{entry}", event, entry).then().statusCode(200).body("status", equalTo("waiting"))
                .body("position", equalTo(0));
        Oracle.assertNeverOversold(sql, event);
    }

    /** Four open entries a client address and four a buyer (the defaults); one left makes room for another. */
    @Test
    void joinsAreLimitedPerClientAndPerBuyerAsQueueTicketsAre() {
        String event = eventWithList("list-limits");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 0, List.of(item));

        List<String> entries = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            entries.add(join(event, "198.51.100.70", item, 1, "bot" + i + "@example.com").then().statusCode(201)
                    .extract().path("id"));
        }
        join(event, "198.51.100.70", item, 1, "bot4@example.com").then().statusCode(429)
                .contentType("application/problem+json").body("code", equalTo("too_many_entries"))
                .header("Retry-After", notNullValue());
        join(event, "198.51.100.71", item, 1, "bot4@example.com").then().statusCode(201);
        storefront().delete(LIST + "/{entry}", event, entries.get(0)).then().statusCode(204);
        join(event, "198.51.100.70", item, 1, "bot5@example.com").then().statusCode(201);

        String ada = buyerToken(event, "ada");
        for (int i = 0; i < 5; i++) {
            Response joined = storefront().header("X-Forwarded-For", "203.0.113." + (80 + i))
                    .body(Map.of("item_id", item, "email", "ada" + i + "@example.com", "buyer_token", ada))
                    .post(LIST, event);
            if (i < 4) {
                joined.then().statusCode(201).body("buyer", equalTo("ada"));
            } else {
                joined.then().statusCode(429).body("code", equalTo("too_many_entries"))
                        .header("Retry-After", notNullValue());
            }
        }
    }
}

package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.channelToken;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newAllotment;
import static io.ticketing.reservations.support.Api.newBundle;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newCartWith;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static io.ticketing.reservations.support.Api.storefrontAvailable;
import static io.ticketing.reservations.support.Api.storefrontOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;
import io.ticketing.reservations.waitinglist.Offers;

/**
 * Contract section 3, "What a caller is shown is what it can take": the catalog, the seat list, a waiting list's
 * decisions and an allotment's count come from the expansion and the count an add is judged by. Each case was shown
 * or decided otherwise than an add then did, before they did.
 */
@QuarkusTest
class ShownIsTakenTest {

    private static final String EVENT = "/api/v1/events/{event}";
    private static final String LIST = EVENT + "/waiting_list";

    @Inject
    Sql sql;

    @Inject
    Offers offers;

    private static String withWaitingList(String prefix) {
        String event = newEvent(prefix);
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true)))
                .patch(EVENT, event).then().statusCode(200);
        return event;
    }

    private static RequestSpecification join(RequestSpecification shop, long item, String email) {
        return shop.body(Map.of("item_id", item, "email", email));
    }

    /** A bundle counts what it brings: two places of a quota shared by a bundle and what it brings. */
    @Test
    void theCatalogCountsWhatABundleBringsInTheQuotaItShares() {
        String event = newEvent("shown-bundle-shared");
        long drink = newItem(event, "Drink", "4");
        long bundle = newBundle(event, "Ticket with a drink", "13", drink, 1);
        newQuota(event, 4, List.of(bundle, drink));

        assertThat(storefrontAvailable(event, bundle)).isEqualTo(2);
        addToCart(event, newCart(event), Map.of("item_id", bundle, "quantity", 3)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        addToCart(event, newCart(event), Map.of("item_id", bundle, "quantity", 2)).then().statusCode(201);
        assertThat(storefrontAvailable(event, bundle)).isZero();
    }

    /** A bundle whose brought item is sold out cannot sell: its waiting list takes the buyer. */
    @Test
    void aBundleWhoseBroughtItemIsSoldOutMayBeWaitedFor() {
        String event = withWaitingList("shown-bundle-wait");
        long drink = newItem(event, "Drink", "4");
        long bundle = newBundle(event, "Ticket with a drink", "13", drink, 1);
        newQuota(event, 10, List.of(bundle));
        newQuota(event, 1, List.of(drink));
        checkout(event, cartWith(event, Map.of("item_id", drink))).then().statusCode(201);

        assertThat(storefrontAvailable(event, bundle)).isZero();
        addToCart(event, newCart(event), Map.of("item_id", bundle)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        join(storefront(), bundle, "fan@example.com").post(LIST, event).then().statusCode(201);
    }

    /**
     * An entry for a bundle keeps back what the bundle brings, waiting and offered: the freed drink is the entry's,
     * and its offer can be used.
     */
    @Test
    void anOfferKeepsBackWhatItsBundleBringsUntilItIsUsed() {
        String event = withWaitingList("shown-offer-bundle");
        long drink = newItem(event, "Drink", "4");
        long bundle = newBundle(event, "Ticket with a drink", "13", drink, 1);
        newQuota(event, 1, List.of(bundle));
        newQuota(event, 1, List.of(drink));
        String sold = checkout(event, cartWith(event, Map.of("item_id", bundle))).then().statusCode(201).extract()
                .path("code");
        String entry = join(storefront(), bundle, "fan@example.com").post(LIST, event).then().statusCode(201)
                .extract().path("id");

        admin().post(EVENT + "/orders/{code}/cancel", event, sold).then().statusCode(200);
        addToCart(event, newCart(event), Map.of("item_id", drink)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        offers.offer(sql.number("SELECT id FROM events WHERE slug = ?1", event));
        String code = storefront().get(LIST + "/{entry}", event, entry).then().statusCode(200)
                .body("status", equalTo("offered")).extract().path("offer.voucher_code");
        addToCart(event, newCart(event), Map.of("item_id", drink)).then().statusCode(409)
                .body("code", equalTo("quota_exhausted"));
        assertThat(storefrontAvailable(event, drink)).isZero();

        addToCart(event, newCart(event), Map.of("item_id", bundle, "voucher_code", code)).then().statusCode(201);
        Oracle.assertNeverOversold(sql, event);
    }

    /** An item the caller's channel does not sell can neither be bought nor waited for there. */
    @Test
    void aWaitingListIsJoinedOnlyWhereTheItemIsSold() {
        String boxOffice = channelToken("box-office");
        String event = withWaitingList("shown-wait-channel");
        long ticket = newItem(event, Map.of("name", "Desk only", "price", "10", "channels", List.of("box-office")));
        newQuota(event, 1, List.of(ticket));
        storefrontOf(boxOffice).body(Map.of("positions", List.of(Map.of("item_id", ticket))))
                .post(EVENT + "/carts/{cart}/positions", event, newCartWith(boxOffice, event)).then().statusCode(201);

        join(storefront(), ticket, "web@example.com").post(LIST, event).then().statusCode(409)
                .body("code", equalTo("item_unavailable"));
        join(storefrontOf(boxOffice), ticket, "desk@example.com").post(LIST, event).then().statusCode(201);
    }

    /** Positions with a voucher use the channel's allotment too; the web shop may have an allotment of its own. */
    @Test
    void anAllotmentCountsItsChannelsVoucherSalesAndTheWebShopMayHaveOne() {
        String boxOffice = channelToken("box-office");
        String event = newEvent("shown-allotment-voucher");
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(ticket));
        newAllotment(event, quota, "box-office", 4);
        newVoucher(event, Map.of("code", "DESK", "max_usages", 2, "item_id", ticket, "block_quota", true));
        String desk = newCartWith(boxOffice, event);
        storefrontOf(boxOffice).body(Map.of("positions", List.of(Map.of("item_id", ticket, "quantity", 2,
                "voucher_code", "DESK")))).post(EVENT + "/carts/{cart}/positions", event, desk).then()
                .statusCode(201);
        storefrontOf(boxOffice).body(Map.of("cart_id", desk, "email", "desk@example.com")).post(EVENT + "/orders",
                event).then().statusCode(201);

        admin().get(EVENT + "/quotas/{quota}/availability", event, quota).then().statusCode(200)
                .body("allotments[0].used", equalTo(2)).body("allotments[0].unused", equalTo(2));
        assertThat(storefrontAvailable(event, ticket)).isEqualTo(6);
        addToCart(event, newCart(event), Map.of("item_id", ticket, "quantity", 7)).then().statusCode(409);
        addToCart(event, newCart(event), Map.of("item_id", ticket, "quantity", 6)).then().statusCode(201);

        long other = newQuota(event, 5, List.of(newItem(event, "Other", "10")));
        newAllotment(event, other, "web", 2);
        admin().get(EVENT + "/quotas/{quota}/availability", event, other).then().statusCode(200)
                .body("allotments[0].channel", equalTo("web")).body("allotments[0].unused", equalTo(2));
        Oracle.assertNeverOversold(sql, event);
    }

    /** A seat the caller's channel cannot take is not shown free to it. */
    @Test
    void theSeatListShowsFreeOnlyWhatTheCallersChannelCanHold() {
        String boxOffice = channelToken("box-office");
        String event = newEvent("shown-seat-channel");
        long seated = newItem(event, Map.of("name", "Desk seat", "price", "30", "requires_seat", true, "channels",
                List.of("box-office")));
        newQuota(event, 10, List.of(seated));
        newSeats(event, seated, "D", 2);

        storefront().get(EVENT + "/seats?available=true", event).then().statusCode(200)
                .body("data.size()", equalTo(0));
        storefrontOf(boxOffice).get(EVENT + "/seats?available=true", event).then().statusCode(200)
                .body("data.size()", equalTo(2));
        addToCart(event, newCart(event), Map.of("item_id", seated, "seat_guid", "D-1")).then().statusCode(409)
                .body("code", equalTo("item_unavailable"));
    }
}

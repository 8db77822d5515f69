package io.ticketing.reservations.inventory;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.channelToken;
import static io.ticketing.reservations.support.Api.newAllotment;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newCartWith;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static io.ticketing.reservations.support.Api.storefrontOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Sql;

/**
 * Allotments (contract section 12): a channel sells its part of a quota first and then what is left for everyone;
 * everyone else sells only what no allotment keeps; an allotment that does not fit is refused; released, shrunk or
 * deleted, what it kept is on sale to everyone at once.
 */
@QuarkusTest
class AllotmentsTest {

    private static final String EVENT = "/api/v1/events/{event}";
    private static final String ALLOTMENTS = EVENT + "/quotas/{quota}/allotments";

    @Inject
    Sql sql;

    private static Integer left(RequestSpecification shop, String event, long item) {
        Map<String, Object> one = shop.get(EVENT + "/catalog", event).then().statusCode(200).extract().jsonPath()
                .<Map<String, Object>>getList("items").stream()
                .filter(candidate -> ((Number) candidate.get("item_id")).longValue() == item).findFirst().orElseThrow();
        return (Integer) one.get("available_number");
    }

    private static void hold(RequestSpecification shop, String event, String cart, long item, int quantity,
            int status) {
        shop.body(Map.of("positions", List.of(Map.of("item_id", item, "quantity", quantity))))
                .post(EVENT + "/carts/{cart}/positions", event, cart).then().statusCode(status);
    }

    @Test
    void aChannelSellsItsAllotmentFirstAndEveryoneElseWhatNoAllotmentKeeps() {
        String boxOffice = channelToken("box-office");
        String event = newEvent("allotment");
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(ticket));
        newAllotment(event, quota, "box-office", 4);
        assertThat(left(storefront(), event, ticket)).isEqualTo(6);
        assertThat(left(storefrontOf(boxOffice), event, ticket)).isEqualTo(10);

        String desk = newCartWith(boxOffice, event);
        hold(storefrontOf(boxOffice), event, desk, ticket, 2, 201);
        assertThat(left(storefront(), event, ticket)).as("the desk sold from its own part").isEqualTo(6);
        String web = newCart(event);
        hold(storefront(), event, web, ticket, 7, 409);
        hold(storefront(), event, web, ticket, 6, 201);
        assertThat(left(storefrontOf(boxOffice), event, ticket)).isEqualTo(2);
        hold(storefrontOf(boxOffice), event, desk, ticket, 3, 409);
        hold(storefrontOf(boxOffice), event, desk, ticket, 2, 201);

        admin().get(EVENT + "/quotas/{quota}/availability", event, quota).then().statusCode(200)
                .body("available_number", equalTo(0)).body("allotments[0].channel", equalTo("box-office"))
                .body("allotments[0].size", equalTo(4)).body("allotments[0].used", equalTo(4))
                .body("allotments[0].unused", equalTo(0));
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void aChannelPastItsAllotmentSellsFromWhatIsLeftForEveryone() {
        String boxOffice = channelToken("box-office");
        String event = newEvent("allotment-past");
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(ticket));
        newAllotment(event, quota, "box-office", 4);
        hold(storefrontOf(boxOffice), event, newCartWith(boxOffice, event), ticket, 7, 201);
        assertThat(left(storefront(), event, ticket)).isEqualTo(3);
        assertThat(addToCart(event, newCart(event), Map.of("item_id", ticket, "quantity", 4)).then().statusCode(409)
                .extract().<String>path("code")).isEqualTo("quota_exhausted");
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void theWaitingListTakesThoseWhoseChannelHasNothingLeftNotABoxOfficeWithItsShare() {
        String boxOffice = channelToken("box-office");
        String event = newEvent("allotment-waiting");
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true)))
                .patch(EVENT, event).then().statusCode(200);
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 4, List.of(ticket));
        newAllotment(event, quota, "box-office", 2);
        addToCart(event, newCart(event), Map.of("item_id", ticket, "quantity", 2)).then().statusCode(201);
        Map<String, Object> join = Map.of("item_id", ticket, "email", "fan@example.com");
        storefrontOf(boxOffice).body(join).post(EVENT + "/waiting_list", event).then().statusCode(409)
                .body("code", equalTo("item_available"));
        storefront().body(join).post(EVENT + "/waiting_list", event).then().statusCode(201);
    }

    @Test
    void anAllotmentThatWhatIsLeftForEveryoneCannotCoverIsRefusedAndNothingIsWritten() {
        channelToken("box-office");
        String event = newEvent("allotment-refused");
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(ticket));
        addToCart(event, newCart(event), Map.of("item_id", ticket, "quantity", 8)).then().statusCode(201);

        admin().body(Map.of("channel", "box-office", "size", 3)).post(ALLOTMENTS, event, quota).then()
                .statusCode(409).contentType("application/problem+json").body("code", equalTo("quota_exhausted"));
        admin().get(ALLOTMENTS, event, quota).then().statusCode(200).body("data.size()", equalTo(0));
        long allotment = newAllotment(event, quota, "box-office", 2);
        String etag = admin().get(ALLOTMENTS + "/{id}", event, quota, allotment).then().statusCode(200).extract()
                .header("ETag");
        admin().header("If-Match", etag).body(Map.of("size", 3)).patch(ALLOTMENTS + "/{id}", event, quota, allotment)
                .then().statusCode(409).body("code", equalTo("quota_exhausted"));
        admin().body(Map.of("channel", "box-office", "size", 1)).post(ALLOTMENTS, event, quota).then()
                .statusCode(409).body("code", equalTo("allotment_exists"));
        admin().body(Map.of("channel", "nowhere", "size", 1)).post(ALLOTMENTS, event, quota).then().statusCode(404);
        admin().body(Map.of("channel", "box-office", "size", -1)).post(ALLOTMENTS, event, quota).then()
                .statusCode(400);
        admin().get(ALLOTMENTS + "/{id}", event, quota, allotment).then().statusCode(200).body("size", equalTo(2));
        Oracle.assertNeverOversold(sql, event);
    }

    @Test
    void releasedShrunkOrDeletedWhatItKeptIsOnSaleToEveryoneAtOnce() {
        channelToken("box-office");
        String event = newEvent("allotment-release");
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 10, List.of(ticket));
        Map<String, Object> body = new HashMap<>(Map.of("channel", "box-office", "size", 4));
        body.put("release_at", Instant.now().plusSeconds(3600).toString());
        long allotment = admin().body(body).post(ALLOTMENTS, event, quota).then().statusCode(201).extract()
                .jsonPath().getLong("id");
        assertThat(left(storefront(), event, ticket)).isEqualTo(6);
        // Released with no job: the next count reads the clock.
        sql.update("UPDATE allotments SET release_at = now() - interval '1 second' WHERE id = ?1", allotment);
        admin().get(EVENT + "/quotas/{quota}/availability", event, quota).then().body("allotments.size()",
                equalTo(0));
        String web = newCart(event);
        hold(storefront(), event, web, ticket, 7, 201);

        Map<String, Object> keepAgain = new HashMap<>();
        keepAgain.put("release_at", null);
        String etag = admin().get(ALLOTMENTS + "/{id}", event, quota, allotment).then().extract().header("ETag");
        admin().header("If-Match", etag).body(keepAgain).patch(ALLOTMENTS + "/{id}", event, quota, allotment).then()
                .statusCode(409).body("code", equalTo("quota_exhausted"));
        storefront().delete(EVENT + "/carts/{cart}", event, web).then().statusCode(204);
        admin().header("If-Match", etag).body(keepAgain).patch(ALLOTMENTS + "/{id}", event, quota, allotment).then()
                .statusCode(200).body("release_at", equalTo(null));
        assertThat(left(storefront(), event, ticket)).isEqualTo(6);
        etag = admin().get(ALLOTMENTS + "/{id}", event, quota, allotment).then().extract().header("ETag");
        admin().header("If-Match", etag).body(Map.of("size", 1)).patch(ALLOTMENTS + "/{id}", event, quota, allotment)
                .then().statusCode(200);
        assertThat(left(storefront(), event, ticket)).isEqualTo(9);
        admin().delete(ALLOTMENTS + "/{id}", event, quota, allotment).then().statusCode(204);
        assertThat(left(storefront(), event, ticket)).isEqualTo(10);
        admin().get(ALLOTMENTS + "/{id}", event, quota, allotment).then().statusCode(404);
    }
}

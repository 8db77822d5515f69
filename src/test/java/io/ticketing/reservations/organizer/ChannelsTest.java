package io.ticketing.reservations.organizer;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.bestAvailable;
import static io.ticketing.reservations.support.Api.channelToken;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newOrganizer;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;

/**
 * Sales channels (contract section 12): every organizer has web; a storefront token sells in its channel, its carts
 * and their orders keep it, and an item limited to other channels is neither shown nor sold there.
 */
@QuarkusTest
class ChannelsTest {

    private static final String CHANNELS = "/api/v1/organizers/{organizer}/channels";
    private static final String EVENT = "/api/v1/events/{event}";

    private static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json");
    }

    private static String storefrontToken(String organizer, String channel) {
        return admin().body(Map.of("name", channel + " till", "scope", "storefront", "channel", channel))
                .post("/api/v1/organizers/{organizer}/tokens", organizer).then().statusCode(201)
                .body("channel", equalTo(channel)).extract().path("token");
    }

    @Test
    void anOrganizerHasWebAndMakesRenamesAndDeletesItsOtherChannels() {
        String organizer = newOrganizer("channels");
        assertThat(admin().get(CHANNELS, organizer).then().statusCode(200).extract().jsonPath()
                .getList("data.slug", String.class)).containsExactly("web");
        admin().body(Map.of("slug", "box-office", "name", "Box office")).post(CHANNELS, organizer).then()
                .statusCode(201).body("slug", equalTo("box-office"));
        admin().body(Map.of("slug", "box-office", "name", "Again")).post(CHANNELS, organizer).then().statusCode(409)
                .body("code", equalTo("slug_taken"));
        admin().body(Map.of("slug", "Box Office", "name", "Bad")).post(CHANNELS, organizer).then().statusCode(400)
                .contentType("application/problem+json");
        String etag = admin().get(CHANNELS + "/box-office", organizer).then().statusCode(200).extract()
                .header("ETag");
        admin().header("If-Match", etag).body(Map.of("name", "Front desk")).patch(CHANNELS + "/box-office",
                organizer).then().statusCode(200).body("name", equalTo("Front desk"));
        admin().body(Map.of("name", "Late")).patch(CHANNELS + "/box-office", organizer).then().statusCode(428);

        admin().delete(CHANNELS + "/web", organizer).then().statusCode(409).body("code", equalTo("in_use"));
        admin().delete(CHANNELS + "/box-office", organizer).then().statusCode(204);
        admin().get(CHANNELS + "/box-office", organizer).then().statusCode(404);
        admin().body(Map.of("name", "Nowhere", "scope", "storefront", "channel", "box-office"))
                .post("/api/v1/organizers/{organizer}/tokens", organizer).then().statusCode(404);
    }

    @Test
    void aTokensChannelSellsItsItemsAndItsCartsAndOrdersKeepIt() {
        String organizer = newOrganizer("box-office");
        admin().body(Map.of("slug", "box-office", "name", "Box office")).post(CHANNELS, organizer).then()
                .statusCode(201);
        String boxOffice = storefrontToken(organizer, "box-office");
        String web = newToken(organizer, "storefront", null);
        String event = "sale-" + Long.toString(System.nanoTime(), 36);
        as(newToken(organizer, "admin", null)).body(Map.of("slug", event, "name", "Sale", "currency", "EUR"))
                .post("/api/v1/events").then().statusCode(201);
        long ticket = admin().body(Map.of("name", "Ticket", "price", "10")).post(EVENT + "/items", event).then()
                .statusCode(201).extract().jsonPath().getLong("id");
        long kept = admin().body(Map.of("name", "At the desk", "price", "12", "channels", List.of("box-office")))
                .post(EVENT + "/items", event).then().statusCode(201).body("channels", equalTo(List.of("box-office")))
                .extract().jsonPath().getLong("id");
        admin().body(Map.of("name", "x", "size", 10, "items", List.of(ticket, kept))).post(EVENT + "/quotas", event)
                .then().statusCode(201);
        admin().body(Map.of("name", "Nowhere", "price", "1", "channels", List.of("reseller")))
                .post(EVENT + "/items", event).then().statusCode(404);

        assertThat(as(web).get(EVENT + "/catalog", event).then().statusCode(200).extract().jsonPath()
                .getList("items.item_id", Long.class)).containsExactly(ticket);
        assertThat(as(boxOffice).get(EVENT + "/catalog", event).then().statusCode(200).extract().jsonPath()
                .getList("items.item_id", Long.class)).containsExactly(ticket, kept);
        assertThat(as(web).get(EVENT + "/availability", event).then().statusCode(200).extract().jsonPath()
                .getList("items.item_id", Long.class)).containsExactly(ticket);
        String webCart = as(web).post(EVENT + "/carts", event).then().statusCode(201).body("channel", equalTo("web"))
                .extract().path("id");
        as(web).body(Map.of("positions", List.of(Map.of("item_id", kept)))).post(EVENT + "/carts/{cart}/positions",
                event, webCart).then().statusCode(409).body("code", equalTo("item_unavailable"));

        String deskCart = as(boxOffice).post(EVENT + "/carts", event).then().statusCode(201)
                .body("channel", equalTo("box-office")).extract().path("id");
        as(boxOffice).body(Map.of("positions", List.of(Map.of("item_id", kept), Map.of("item_id", ticket))))
                .post(EVENT + "/carts/{cart}/positions", event, deskCart).then().statusCode(201);
        String order = as(boxOffice).body(Map.of("cart_id", deskCart, "email", "desk@example.com"))
                .post(EVENT + "/orders", event).then().statusCode(201).body("channel", equalTo("box-office"))
                .extract().path("code");
        admin().get(EVENT + "/orders/{code}", event, order).then().statusCode(200)
                .body("channel", equalTo("box-office"));
        admin().delete(CHANNELS + "/box-office", organizer).then().statusCode(409).body("code", equalTo("in_use"));
    }

    @Test
    void aSeatKeptForAChannelSellsOnlyThereInEveryFlow() {
        String boxOffice = channelToken("box-office");
        String event = newEvent("kept-seats");
        long seat = newSeatedItem(event, "Seat", "30");
        newQuota(event, 10, List.of(seat));
        List<Map<String, Object>> plan = new ArrayList<>();
        for (int n = 1; n <= 4; n++) {
            Map<String, Object> one = new HashMap<>(Map.of("guid", "A-" + n, "name", "A " + n, "item_id", seat,
                    "section", "Stalls", "row", "A", "number", n));
            if (n % 2 == 1) {
                one.put("channels", List.of("box-office"));
            }
            plan.add(one);
        }
        admin().body(Map.of("seats", List.of(Map.of("guid", "Z-1", "name", "Z", "item_id", seat, "channels",
                List.of("nowhere"))))).post(EVENT + "/seats", event).then().statusCode(404);
        admin().body(Map.of("seats", plan)).post(EVENT + "/seats", event).then().statusCode(201)
                .body("seats[0].channels", equalTo(List.of("box-office"))).body("seats[1].channels", equalTo(null));

        assertThat(catalogLeft(given().header("Authorization", "Bearer test-storefront-token"), event, seat))
                .as("web sees the seats it sells").isEqualTo(2);
        assertThat(catalogLeft(as(boxOffice), event, seat)).isEqualTo(4);
        assertThat(given().header("Authorization", "Bearer test-storefront-token").get(EVENT + "/seats?available=true",
                event).then().statusCode(200).extract().jsonPath().getList("data.guid", String.class))
                .containsExactly("A-2", "A-4");
        assertThat(as(boxOffice).get(EVENT + "/seats?available=true", event).then().statusCode(200).extract()
                .jsonPath().getList("data.guid", String.class)).containsExactly("A-1", "A-2", "A-3", "A-4");
        String web = newCart(event);
        addToCart(event, web, Map.of("item_id", seat, "seat_guid", "A-1")).then().statusCode(409)
                .body("code", equalTo("seat_unavailable")).body("channel", equalTo("web"));
        bestAvailable(event, web, seat, 3).then().statusCode(409).body("code", equalTo("seat_unavailable"));
        bestAvailable(event, web, seat, 2).then().statusCode(201);
        String desk = as(boxOffice).post(EVENT + "/carts", event).then().statusCode(201).extract().path("id");
        as(boxOffice).body(Map.of("item_id", seat, "quantity", 2))
                .post(EVENT + "/carts/{cart}/best_available", event, desk).then().statusCode(201);

        String etag = admin().get(EVENT + "/seats/A-1", event).then().statusCode(200).extract().header("ETag");
        Map<String, Object> everywhere = new HashMap<>();
        everywhere.put("channels", null);
        String changed = admin().header("If-Match", etag).body(everywhere).patch(EVENT + "/seats/A-1", event).then()
                .statusCode(200).body("channels", equalTo(null)).extract().header("ETag");
        assertThat(changed).as("a new version: another admin's PATCH on the old one is refused").isNotEqualTo(etag);
        admin().header("If-Match", etag).body(Map.of("channels", List.of("box-office")))
                .patch(EVENT + "/seats/A-1", event).then().statusCode(412);
    }

    private static Integer catalogLeft(RequestSpecification shop, String event, long item) {
        return shop.get(EVENT + "/catalog", event).then().statusCode(200).extract().jsonPath()
                .<Map<String, Object>>getList("items").stream()
                .filter(one -> ((Number) one.get("item_id")).longValue() == item).findFirst()
                .map(one -> (Integer) one.get("available_number")).orElseThrow();
    }
}

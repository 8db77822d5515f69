package io.ticketing.reservations.organizer;

import static io.ticketing.reservations.organizer.OrganizersTest.newOrganizer;
import static io.ticketing.reservations.organizer.OrganizersTest.newToken;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.ticketing.reservations.support.Sql;

/**
 * Contract section 11, for every operation the served OpenAPI document has: with a token of another organizer, and
 * with one of the right organizer limited to another event, each operation on an event's (or an organizer's)
 * resources answers 404, as for one that does not exist, or 403 where the token lacks the scope (the operation's
 * security says which), and nothing changes. A new endpoint that forgets the check fails here.
 */
@QuarkusTest
class TenantWalkTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PARAMETER = Pattern.compile("\\{([a-z_]+)}");
    private static final String TABLES = "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM items)"
            + " + (SELECT count(*) FROM quotas) + (SELECT count(*) FROM seats) + (SELECT count(*) FROM vouchers)"
            + " + (SELECT count(*) FROM carts) + (SELECT count(*) FROM cart_positions) + (SELECT count(*) FROM orders)"
            + " + (SELECT count(*) FROM event_dates) + (SELECT count(*) FROM api_tokens WHERE revoked_at IS NULL)"
            + " + (SELECT count(*) FROM waiting_list_entries WHERE status = 'waiting')"
            + " + (SELECT count(*) FROM queue_tickets) + (SELECT sum(version) FROM events)"
            + " + (SELECT coalesce(sum(version), 0) FROM items) + (SELECT coalesce(sum(version), 0) FROM vouchers)"
            + " + (SELECT coalesce(sum(version), 0) FROM organizers)";

    @Inject
    Sql sql;

    private final Map<String, String> valid = new HashMap<>();

    @Test
    void everyOperationOnAnotherTenantsResourcesAnswersAsIfNoneExistedAndChangesNothing() throws Exception {
        setUpValidPathValues();
        String stranger = newToken(newOrganizer("stranger"), "admin", null);
        String elsewhere = newToken("default", "admin", List.of(newEvent("elsewhere")));
        JsonNode document = JSON.readTree(RestAssured.get("/q/openapi?format=json").asString());
        long before = sql.number(TABLES);
        List<String> walked = new ArrayList<>();
        for (var path : document.path("paths").properties()) {
            if (!path.getKey().contains("{")) {
                continue;
            }
            for (var operation : path.getValue().properties()) {
                boolean adminMay = false;
                for (JsonNode requirement : operation.getValue().path("security")) {
                    adminMay |= requirement.has("admin");
                }
                for (String token : List.of(stranger, elsewhere)) {
                    Response answer = request(operation.getKey().toUpperCase(), fill(path.getKey()), token,
                            operation.getValue().has("requestBody"));
                    int expected = adminMay ? 404 : 403;
                    assertThat(answer.statusCode()).as("%s %s with %s: %s", operation.getKey(), path.getKey(),
                            token == stranger ? "another organizer's token" : "a token limited to another event",
                            answer.asString()).isEqualTo(expected);
                }
                walked.add(operation.getKey() + " " + path.getKey());
            }
        }
        assertThat(sql.number(TABLES)).as("rows and versions after walking %d operations", walked.size())
                .isEqualTo(before);
        assertThat(walked).hasSizeGreaterThan(40);
    }

    private static Response request(String method, String path, String token, boolean withBody) {
        var request = RestAssured.given().urlEncodingEnabled(false).header("Authorization", "Bearer " + token)
                .header("If-Match", "\"0\"").contentType("application/json");
        if (withBody) {
            request.body("{}");
        }
        return request.request(method, path);
    }

    private String fill(String template) {
        Matcher parameters = PARAMETER.matcher(template);
        StringBuilder filled = new StringBuilder();
        while (parameters.find()) {
            String value = valid.get(parameters.group(1));
            assertThat(value).as("a value for {%s} of %s", parameters.group(1), template).isNotNull();
            parameters.appendReplacement(filled, value);
        }
        return parameters.appendTail(filled).toString();
    }

    /** Real resources of the default organizer for every path parameter. */
    private void setUpValidPathValues() {
        String event = newEvent("tenant");
        long item = newItem(event, "Ticket", "10.00");
        long seated = newSeatedItem(event, "Seat", "20.00");
        long quota = newQuota(event, 10, List.of(item));
        newQuota(event, 10, List.of(seated));
        newSeats(event, seated, "P", 1);
        newVoucher(event, Map.of("code", "TENANT"));
        String cart = cartWith(event, Map.of("item_id", item));
        String order = checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201).extract()
                .path("code");
        valid.put("event", event);
        valid.put("item", Long.toString(item));
        valid.put("quota", Long.toString(quota));
        valid.put("guid", "P-1");
        valid.put("code", "TENANT");
        valid.put("cart", cart);
        valid.put("position", Long.toString(sql.number("SELECT min(id) FROM cart_positions WHERE cart_id = ?1",
                cart)));
        valid.put("organizer", "default");
        newToken("default", "storefront", null);
        valid.put("token", Long.toString(sql.number("SELECT max(id) FROM api_tokens")));
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true)))
                .patch("/api/v1/events/{event}", event).then().statusCode(200);
        long soldOut = newItem(event, "Sold out", "5.00");
        newQuota(event, 0, List.of(soldOut));
        valid.put("entry", storefront().body(Map.of("item_id", soldOut, "email", "wait@example.com"))
                .post("/api/v1/events/{event}/waiting_list", event).then().statusCode(201).extract().path("id"));
        valid.put("date", Long.toString(newDate(event, 4)));
        admin().header("If-Match", "\"1\"").body(Map.of("waiting_room", Map.of("enabled", true,
                "admission_per_minute", 1))).patch("/api/v1/events/{event}", event).then().statusCode(200);
        valid.put("ticket", storefront().post("/api/v1/events/{event}/queue", event).then().statusCode(201)
                .extract().path("ticket"));
        // Vouchers and orders are both found by {code}: another tenant is refused before either is looked for.
        assertThat(order).isNotBlank();
    }
}

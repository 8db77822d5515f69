package io.ticketing.reservations.organizer;

import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newOrganizer;
import static io.ticketing.reservations.support.Api.newToken;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.ticketing.reservations.support.PathValues;
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

    @Test
    void everyOperationOnAnotherTenantsResourcesAnswersAsIfNoneExistedAndChangesNothing() throws Exception {
        PathValues valid = PathValues.create("tenant", sql);
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
                    Response answer = request(operation.getKey().toUpperCase(), valid.fill(path.getKey(), Map.of()),
                            token, operation.getValue().has("requestBody"));
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
}

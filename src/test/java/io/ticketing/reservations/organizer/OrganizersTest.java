package io.ticketing.reservations.organizer;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newOrganizer;
import static io.ticketing.reservations.support.Api.newToken;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Sql;

/** Contract section 11: organizers, their API tokens, and each token kept to its organizer's (and listed) events. */
@QuarkusTest
class OrganizersTest {

    private static final String ORGANIZERS = "/api/v1/organizers";

    @Inject
    Sql sql;

    static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json");
    }

    /** A new event made with {@code token}; returns its slug. */
    static String newEventWith(String token, String prefix) {
        String slug = prefix + "-" + Long.toString(System.nanoTime(), 36);
        as(token).body(Map.of("slug", slug, "name", prefix, "currency", "EUR")).post("/api/v1/events").then()
                .statusCode(201);
        return slug;
    }

    @Test
    void thePlatformMakesOrganizersAndTheirTokensWhoseSecretIsShownOnceAndKeptAsAHash() {
        String organizer = newOrganizer("city-hall");
        admin().get(ORGANIZERS + "/{organizer}", organizer).then().statusCode(200).body("name", equalTo("city-hall"));
        JsonPath created = admin().body(Map.of("name", "box office", "scope", "admin")).post(ORGANIZERS
                + "/{organizer}/tokens", organizer).then().statusCode(201).extract().jsonPath();
        String secret = created.getString("token");
        assertThat(secret).startsWith(created.getString("prefix") + "_");
        assertThat(sql.number(
                "SELECT count(*) FROM api_tokens WHERE prefix = ?1 AND secret_hash = sha256(CAST(?2 AS bytea))",
                created.getString("prefix"), secret)).as("kept as its hash").isEqualTo(1);
        JsonPath listed = as(secret).get(ORGANIZERS + "/{organizer}/tokens", organizer).then().statusCode(200)
                .extract().jsonPath();
        assertThat(listed.getList("data.prefix", String.class)).containsExactly(created.getString("prefix"));
        assertThat(listed.getList("data.token")).containsOnlyNulls();

        // Made again with the same Idempotency-Key, the same token is answered without its secret, which the
        // record of the key never held.
        Map<String, Object> keyed = Map.of("name", "kiosk", "scope", "storefront");
        JsonPath once = admin().header("Idempotency-Key", "kiosk-1").body(keyed)
                .post(ORGANIZERS + "/{organizer}/tokens", organizer).then().statusCode(201).extract().jsonPath();
        JsonPath again = admin().header("Idempotency-Key", "kiosk-1").body(keyed)
                .post(ORGANIZERS + "/{organizer}/tokens", organizer).then().statusCode(201).extract().jsonPath();
        assertThat(once.getString("token")).startsWith(once.getString("prefix"));
        assertThat(again.getLong("id")).isEqualTo(once.getLong("id"));
        assertThat(again.getString("token")).isNull();
        assertThat(sql.number("SELECT count(*) FROM idempotency_keys WHERE strpos(body, ?1) > 0",
                once.getString("token"))).as("records holding the secret").isZero();
        admin().body(Map.of("name", "late", "scope", "admin", "expires_at", Instant.now().minusSeconds(60)
                .toString())).post(ORGANIZERS + "/{organizer}/tokens", organizer).then().statusCode(400)
                .body("errors[0].field", equalTo("expires_at"));

        // An organizer's token is no platform token: organizers are not its to list or make.
        as(secret).get(ORGANIZERS).then().statusCode(403);
        as(secret).get("/q/metrics").then().statusCode(403).contentType("application/problem+json")
                .body("code", equalTo("forbidden"));
        as(secret).body(Map.of("slug", "other-" + organizer, "name", "x")).post(ORGANIZERS).then().statusCode(403);
        admin().body(Map.of("slug", organizer, "name", "again")).post(ORGANIZERS).then().statusCode(409);
    }

    @Test
    void anOrganizersTokenReachesItsOwnEventsOnlyAndAnotherOrganizersAnswer404AsIfNoneExisted() {
        String mine = newOrganizer("mine");
        String theirs = newOrganizer("theirs");
        String myToken = newToken(mine, "admin", null);
        String theirToken = newToken(theirs, "admin", null);
        String event = newEventWith(myToken, "own");
        admin().get("/api/v1/events/{event}", event).then().statusCode(200).body("organizer", equalTo(mine));
        as(myToken).get("/api/v1/events/{event}", event).then().statusCode(200);

        Response hidden = as(theirToken).get("/api/v1/events/{event}/items", event);
        Response missing = as(theirToken).get("/api/v1/events/{event}/items", "no-" + event);
        assertThat(hidden.statusCode()).isEqualTo(404);
        assertThat(hidden.jsonPath().getString("detail").replace(event, "SLUG"))
                .isEqualTo(missing.jsonPath().getString("detail").replace("no-" + event, "SLUG"));
        as(theirToken).get(ORGANIZERS + "/{organizer}/tokens", mine).then().statusCode(404);
        assertThat(as(theirToken).get("/api/v1/events?limit=500").jsonPath().getList("data.slug"))
                .doesNotContain(event);
        assertThat(as(myToken).get("/api/v1/events?limit=500").jsonPath().getList("data.organizer"))
                .containsOnly(mine);

        // A token limited to some events reaches those only, and makes no others.
        String other = newEventWith(myToken, "other");
        String limited = newToken(mine, "admin", List.of(event));
        as(limited).get("/api/v1/events/{event}/items", event).then().statusCode(200);
        as(limited).get("/api/v1/events/{event}/items", other).then().statusCode(404);
        JsonPath page = as(newToken(mine, "admin", List.of(other))).get("/api/v1/events?limit=1").then()
                .statusCode(200).extract().jsonPath();
        assertThat(page.getList("data.slug")).as("the first page of a token limited to a later event")
                .containsExactly(other);
        as(limited).body(Map.of("slug", "nope-" + event, "name", "x", "currency", "EUR")).post("/api/v1/events").then()
                .statusCode(403);
        admin().body(Map.of("name", "x", "scope", "admin", "events", List.of("no-such-event"))).post(ORGANIZERS
                + "/{organizer}/tokens", mine).then().statusCode(404);
    }

    @Test
    void aRevokedOrExpiredTokenIsRefusedAndUseIsRecordedWithinAMinute() {
        String organizer = newOrganizer("rotate");
        JsonPath first = admin().body(Map.of("name", "old", "scope", "storefront")).post(ORGANIZERS
                + "/{organizer}/tokens", organizer).then().statusCode(201).extract().jsonPath();
        String second = newToken(organizer, "storefront", null);
        String event = newEventWith(newToken(organizer, "admin", null), "rotated");
        as(first.getString("token")).get("/api/v1/events/{event}/catalog", event).then().statusCode(200);
        as(second).get("/api/v1/events/{event}/catalog", event).then().statusCode(200);

        admin().delete(ORGANIZERS + "/{organizer}/tokens/{token}", organizer, first.getLong("id")).then()
                .statusCode(204);
        as(first.getString("token")).get("/api/v1/events/{event}/catalog", event).then().statusCode(401);
        as(second).get("/api/v1/events/{event}/catalog", event).then().statusCode(200);

        // A token made on another replica a moment ago is found at this one's next read of changed tokens; one
        // made up is not, and costs no read of its own.
        String elsewhere = "ir_elsewhere" + Long.toString(System.nanoTime(), 36) + "_s3cret";
        sql.update("INSERT INTO api_tokens (organizer_id, name, scope, prefix, secret_hash) SELECT id, 'elsewhere',"
                + " 'storefront', ?1, sha256(CAST(?2 AS bytea)) FROM organizers WHERE slug = ?3",
                elsewhere.substring(0, elsewhere.lastIndexOf('_')), elsewhere, organizer);
        as(elsewhere).get("/api/v1/events/{event}/catalog", event).then().statusCode(200);
        as("ir_madeup_s3cret").get("/api/v1/events/{event}/catalog", event).then().statusCode(401);

        String expiring = admin().body(Map.of("name", "short", "scope", "storefront", "expires_at",
                Instant.now().plusSeconds(1).toString())).post(ORGANIZERS + "/{organizer}/tokens", organizer).then()
                .statusCode(201).extract().path("token");
        Eventually.within(Duration.ofSeconds(5), "the expired token refused",
                () -> as(expiring).get("/api/v1/events/{event}/catalog", event).statusCode() == 401);
        Eventually.within(Duration.ofSeconds(10), "last_used_at of the token used",
                () -> admin().get(ORGANIZERS + "/{organizer}/tokens", organizer).jsonPath()
                        .getList("data.last_used_at").stream().anyMatch(used -> used != null));
    }

    @Test
    void aStorefrontTokenAloneGoesInAUrlAndOnlyToTheStream() {
        String organizer = newOrganizer("stream");
        String adminToken = newToken(organizer, "admin", null);
        String storefrontToken = newToken(organizer, "storefront", null);
        String event = newEventWith(adminToken, "streamed");
        given().queryParam("access_token", adminToken).get("/api/v1/events/{event}/availability/stream", event)
                .then().statusCode(401);
        given().queryParam("access_token", "test-admin-token").get("/api/v1/events/{event}/availability/stream",
                event).then().statusCode(401);
        given().queryParam("access_token", storefrontToken).get("/api/v1/events/{event}/catalog", event).then()
                .statusCode(401);
        as(storefrontToken).get("/api/v1/events/{event}/items", event).then().statusCode(403);
        storefront().get("/api/v1/events/{event}/catalog", event).then().statusCode(200)
                .body("items", equalTo(List.of()));
        admin().get("/api/v1/events/{event}", event).then().body("max_per_buyer", nullValue());
    }
}

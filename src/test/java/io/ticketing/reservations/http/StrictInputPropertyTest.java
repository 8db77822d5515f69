package io.ticketing.reservations.http;

import static io.ticketing.reservations.support.Api.ADMIN;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.ticketing.reservations.support.PathValues;
import io.ticketing.reservations.support.Sql;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/**
 * Malformed input for every operation of the served OpenAPI document, generated with jqwik: bodies whose fields
 * have the wrong type, hold NUL or lone surrogates, or carry dates PostgreSQL cannot store, bodies that are not one
 * JSON document or not JSON at all, and path parameters no resource has, dot segments among them. Each must be
 * answered with a 4xx problem, a 400 naming what is wrong in {@code errors}, and must write nothing.
 */
@QuarkusTest
class StrictInputPropertyTest {

    /** Escapes every non-ASCII character, so that a lone surrogate reaches the service as written, not as '?'. */
    private static final ObjectMapper JSON = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
    private static final int BODIES_PER_OPERATION = 20;
    private static final int PATHS_PER_OPERATION = 8;
    private static final String TABLES = "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM items)"
            + " + (SELECT count(*) FROM quotas) + (SELECT count(*) FROM quota_items) + (SELECT count(*) FROM seats)"
            + " + (SELECT count(*) FROM vouchers) + (SELECT count(*) FROM carts)"
            + " + (SELECT count(*) FROM cart_positions) + (SELECT count(*) FROM orders)"
            + " + (SELECT count(*) FROM order_positions) + (SELECT sum(version) FROM events)"
            + " + (SELECT coalesce(sum(version), 0) FROM items) + (SELECT coalesce(sum(version), 0) FROM seats)"
            + " + (SELECT coalesce(sum(version), 0) FROM vouchers) + (SELECT coalesce(sum(version), 0) FROM quotas)"
            + " + (SELECT count(*) FROM event_dates) + (SELECT sum(version) FROM organizers)"
            + " + (SELECT count(*) FROM organizers) + (SELECT count(*) FROM api_tokens WHERE revoked_at IS NULL)";

    /** Bodies in these are refused whatever they hold: only application/json and +json types are read. */
    private static final List<String> NOT_JSON = List.of("text/plain", "application/x-www-form-urlencoded");

    @Inject
    Sql sql;

    private int requests;

    @Test
    void shouldRefuseMalformedInputToEveryOperationWithAProblemAndWriteNothing() throws Exception {
        PathValues valid = PathValues.create("property", sql);
        JsonNode document = JSON.readTree(RestAssured.get("/q/openapi?format=json").asString());
        long before = sql.number(TABLES);
        int operations = 0;
        for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
            for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
                operations++;
                String method = operation.getKey().toUpperCase();
                JsonNode body = requestSchema(document, operation.getValue());
                if (body != null) {
                    boolean optional = !operation.getValue().path("requestBody").path("required").asBoolean(true);
                    for (String malformed : malformedBodies(body, optional).sampleStream().limit(BODIES_PER_OPERATION)
                            .toList()) {
                        expectRefusal(method, valid.fill(path.getKey(), Map.of()), "application/json", malformed);
                    }
                    for (String type : NOT_JSON) {
                        assertThat(expectRefusal(method, valid.fill(path.getKey(), Map.of()), type, "{}").statusCode())
                                .as("%s %s as %s", method, path.getKey(), type).isEqualTo(415);
                    }
                }
                if (path.getKey().contains("{")) {
                    for (Map<String, String> params : malformedPathParameters(path.getKey()).sampleStream()
                            .limit(PATHS_PER_OPERATION).toList()) {
                        expectRefusal(method, valid.fill(path.getKey(), params), "application/json",
                                body == null ? null : "{}");
                    }
                }
            }
        }
        assertThat(sql.number(TABLES)).as("rows and versions after %d malformed requests", requests).isEqualTo(before);
        System.out.printf("strict input: %d malformed requests to %d operations, all refused with 4xx problems%n",
                requests, operations);
    }

    private Response expectRefusal(String method, String path, String contentType, String body) {
        var request = RestAssured.given().urlEncodingEnabled(false).header("Authorization", ADMIN)
                .header("If-Match", "\"0\"");
        if (body != null) {
            request.contentType(contentType).body(body);
        }
        Response response = request.request(method, path);
        requests++;
        assertThat(response.statusCode()).as("%s %s %s: %s", method, path, body, response.asString())
                .isBetween(400, 499);
        assertThat(response.contentType()).as("%s %s %s", method, path, body).startsWith("application/problem+json");
        if (response.statusCode() == 400) {
            assertThat(response.jsonPath().getList("errors")).as("errors of %s %s %s: %s", method, path, body,
                    response.asString()).isNotEmpty();
        }
        return response;
    }

    /** Arbitrary wrong values for one field, by the type the document gives it. */
    private static Arbitrary<Object> wrongValueFor(JsonNode property) {
        String type = property.path("type").asText("object");
        String format = property.path("format").asText("");
        Arbitrary<Object> always = Arbitraries.<Object>of(List.of(), Map.of("nested", 1));
        Arbitrary<Object> unstorable = Arbitraries.strings().ofMaxLength(8)
                .flatMap(s -> Arbitraries.of("\u0000", "\ud800", "\udfff").map(bad -> s + bad + s));
        return switch (type) {
            case "integer" -> Arbitraries.oneOf(always, Arbitraries.of("5", "1", true, "", "NaN"),
                    Arbitraries.doubles().between(-1e6, 1e6).filter(d -> d != Math.rint(d)).map(d -> (Object) d),
                    Arbitraries.of(1e30, -1e30, new java.math.BigInteger("99999999999999999999999")));
            case "boolean" -> Arbitraries.oneOf(always, Arbitraries.of("true", 1, 0, "yes"));
            case "array" -> Arbitraries.oneOf(Arbitraries.of("x", 1, true, Map.of()), unstorable);
            case "string" -> format.equals("date-time")
                    ? Arbitraries.oneOf(always, unstorable, Arbitraries.of("", "tomorrow", 1700000000, true,
                            "+999999999-12-31T23:59:59Z", "-290000-01-01T00:00:00Z", "2026-13-45T25:61:00Z"))
                    : Arbitraries.oneOf(always, unstorable, Arbitraries.integers().map(i -> (Object) i),
                            Arbitraries.of(true, 1.5));
            default -> Arbitraries.oneOf(Arbitraries.of("x", 1, true, List.of()), unstorable);
        };
    }

    /**
     * A body with one field of the wrong type, or one that is not a single JSON document. Where the body is optional,
     * an empty one and a JSON {@code null} mean none, so they are not malformed.
     */
    private static Arbitrary<String> malformedBodies(JsonNode schema, boolean optional) {
        List<Map.Entry<String, JsonNode>> properties = new ArrayList<>();
        schema.path("properties").properties().forEach(properties::add);
        Arbitrary<String> wrongField = Arbitraries.of(properties).flatMap(property -> wrongValueFor(property.getValue())
                .map(value -> {
                    ObjectNode body = JSON.createObjectNode();
                    body.set(property.getKey(), JSON.valueToTree(value));
                    try {
                        return JSON.writeValueAsString(body);
                    } catch (JsonProcessingException e) {
                        throw new IllegalStateException(e);
                    }
                }));
        List<String> notOne = new ArrayList<>(List.of("{} trailing", "{}{}", "{", "[1,2]", "\"text\"",
                "{\"unknown_field\":1}", "{\"a\":1,\"a\":2}", "{'single':'quotes'}",
                "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]"));
        if (!optional) {
            notOne.addAll(List.of("null", ""));
        }
        Arbitrary<String> notOneDocument = Arbitraries.of(notOne);
        return Arbitraries.frequencyOf(Tuple.of(4, wrongField), Tuple.of(1, notOneDocument));
    }

    /** One path parameter replaced by something no resource is called. */
    private static Arbitrary<Map<String, String>> malformedPathParameters(String path) {
        List<String> names = new ArrayList<>();
        Matcher matcher = Pattern.compile("\\{([a-z]+)\\}").matcher(path);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        Arbitrary<String> bad = Arbitraries.oneOf(
                Arbitraries.of("%00", "a%00b", "-1", "1.5", "99999999999999999999", "%F0%9F%92%A5", "a%20b",
                        "a%2Fb", "x".repeat(5000), "0", "%2e%2e", "%2E", ".%2e"),
                Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(30).map(s -> "no-" + s));
        return Arbitraries.of(names).flatMap(name -> bad.map(value -> Map.of(name, value)));
    }

    private static JsonNode requestSchema(JsonNode document, JsonNode operation) {
        JsonNode schema = operation.path("requestBody").path("content").path("application/json").path("schema");
        if (schema.isMissingNode()) {
            return null;
        }
        String ref = schema.path("$ref").asText();
        return ref.isEmpty()
                ? schema
                : document.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1));
    }
}

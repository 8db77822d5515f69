package io.ticketing.reservations.openapi;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The OpenAPI document is what storefront teams generate their clients from. These tests read it as the running
 * service serves it; {@code ServedDocument} checks every request and response of the suite against it.
 */
@QuarkusTest
class OpenApiDocumentTest {

    /** The committed copy clients are generated from (GeneratedClientTest's client too). */
    static final Path COMMITTED = Path.of("src/main/openapi/openapi.json");

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode served() throws IOException {
        return JSON.readTree(given().get("/q/openapi?format=json").then().statusCode(200).extract().asString());
    }

    @Test
    void shouldServeExactlyTheCommittedDocument() throws IOException {
        JsonNode served = served();
        if (!served.equals(JSON.readTree(COMMITTED.toFile()))) {
            Path fresh = Path.of("target/openapi.json");
            Files.writeString(fresh, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(served));
            throw new AssertionError("The served OpenAPI document differs from " + COMMITTED + ": review " + fresh
                    + " and copy it there if the change is meant.");
        }
    }

    /**
     * What every operation shares is written once, in {@code components}: the document stays small enough for a
     * reader and an editor to load, and an operation adds only its own parts.
     */
    @Test
    void shouldStayReadableInOneSitting() throws IOException {
        String document = given().get("/q/openapi?format=json").then().statusCode(200).extract().asString();
        int bytes = document.getBytes(StandardCharsets.UTF_8).length;
        assertThat(bytes).as("bytes").isLessThanOrEqualTo(400 * 1024);
        JSON.readTree(document).path("paths").properties().forEach(path -> path.getValue().properties()
                .forEach(operation -> assertThat(pretty(operation.getValue()).length())
                        .as(operation.getKey() + " " + path.getKey()).isLessThanOrEqualTo(4 * 1024)));
        assertThat(document).as("the problem example is written once").containsOnlyOnce("\"code\" : \"unauthorized\"");
        System.out.printf("openapi: %d bytes%n", bytes);
    }

    private static String pretty(JsonNode node) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void shouldNameEveryFieldAndQueryParameterInSnakeCase() throws IOException {
        JsonNode document = served();
        List<String> names = new ArrayList<>();
        document.path("components").path("schemas").forEach(schema -> collectPropertyNames(schema, names));
        document.path("paths").forEach(path -> path.forEach(operation -> operation.path("parameters")
                .forEach(parameter -> {
                    if (parameter.path("in").asText().equals("query") || parameter.path("in").asText().equals("path")) {
                        names.add(parameter.path("name").asText());
                    }
                })));
        assertThat(names).hasSizeGreaterThan(50).allMatch(name -> name.matches("[a-z][a-z0-9_]*"));
    }

    @Test
    void shouldListEveryStatusOfEveryOperationWithItsBodyAndExamples() throws IOException {
        JsonNode document = served();
        assertThat(document.path("openapi").asText()).isEqualTo("3.0.3");
        JsonNode schemes = document.path("components").path("securitySchemes");
        assertThat(schemes.properties().stream().map(Map.Entry::getKey)).containsExactlyInAnyOrder("storefront",
                "checkin", "admin", "platform");
        schemes.forEach(scheme -> {
            assertThat(scheme.path("type").asText()).isEqualTo("http");
            assertThat(scheme.path("scheme").asText()).isEqualTo("bearer");
        });
        int operations = 0;
        int statuses = 0;
        for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
            for (Map.Entry<String, JsonNode> entry : path.getValue().properties()) {
                String method = entry.getKey();
                JsonNode operation = entry.getValue();
                String name = method + " " + path.getKey();
                operations++;
                assertThat(operation.path("operationId").asText()).as(name).isNotEmpty();
                assertThat(operation.path("security").toString()).as(name).contains("platform");
                JsonNode responses = resolved(document, operation.path("responses"));
                assertThat(responses.properties()).as(name).anyMatch(status -> status.getKey().startsWith("2"));
                for (String status : List.of("400", "401", "403", "406", "413", "414", "431", "503")) {
                    assertThat(responses.has(status)).as(name + " " + status).isTrue();
                }
                assertThat(responses.path("401").path("headers").has("WWW-Authenticate")).as(name).isTrue();
                assertThat(responses.path("503").path("headers").has("Retry-After")).as(name).isTrue();
                for (Map.Entry<String, JsonNode> response : responses.properties()) {
                    statuses++;
                    JsonNode problem = response.getValue().path("content").path("application/problem+json")
                            .path("schema");
                    if (response.getKey().startsWith("2")) {
                        assertThat(response.getValue().path("content").isMissingNode()).as(name)
                                .isEqualTo(response.getKey().equals("204"));
                        continue;
                    }
                    assertThat(problem.path("properties").path("code").path("enum").size())
                            .as(name + " " + response.getKey() + " codes").isPositive();
                    assertThat(problem.path("example").path("code").asText()).as(name).isNotEmpty();
                }
                if (method.equals("post")) {
                    assertThat(parameterNames(document, operation)).as(name).contains("Idempotency-Key");
                    assertThat(responses.has("422")).as(name).isTrue();
                }
                if (method.equals("patch")) {
                    assertThat(operation.path("parameters")).as(name).map(parameter -> resolved(document, parameter))
                            .anyMatch(parameter -> parameter.path("name").asText().equals("If-Match")
                                    && parameter.path("required").asBoolean());
                    assertThat(responses.has("412") && responses.has("428")).as(name).isTrue();
                }
            }
        }
        int examples = document.findValues("example").size();
        assertThat(operations).isGreaterThanOrEqualTo(37);
        System.out.printf("openapi: %d operations, %d responses, %d examples%n", operations, statuses, examples);
    }

    private static List<String> parameterNames(JsonNode document, JsonNode operation) {
        List<String> names = new ArrayList<>();
        operation.path("parameters").forEach(parameter -> names.add(resolved(document, parameter).path("name")
                .asText()));
        return names;
    }

    /** {@code node} with each member that is a {@code $ref} into {@code components} replaced by what it names. */
    private static JsonNode resolved(JsonNode document, JsonNode node) {
        if (node.has("$ref")) {
            JsonNode target = document.at(node.path("$ref").asText().substring(1));
            assertThat(target.isMissingNode()).as(node.path("$ref").asText()).isFalse();
            return target;
        }
        ObjectNode copy = node.deepCopy();
        node.properties().forEach(member -> {
            if (member.getValue().has("$ref")) {
                copy.set(member.getKey(), resolved(document, member.getValue()));
            }
        });
        return copy;
    }

    private static void collectPropertyNames(JsonNode schema, List<String> names) {
        if (schema.isMissingNode()) {
            return;
        }
        schema.path("properties").properties().forEach(property -> {
            names.add(property.getKey());
            collectPropertyNames(property.getValue(), names);
        });
        collectPropertyNames(schema.path("items"), names);
    }
}

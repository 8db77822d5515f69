package io.ticketing.reservations.openapi;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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
                JsonNode responses = operation.path("responses");
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
                    assertThat(parameterNames(operation)).as(name).contains("Idempotency-Key");
                    assertThat(responses.has("422")).as(name).isTrue();
                }
                if (method.equals("patch")) {
                    assertThat(operation.path("parameters")).as(name).anyMatch(parameter -> parameter.path("name")
                            .asText().equals("If-Match") && parameter.path("required").asBoolean());
                    assertThat(responses.has("412") && responses.has("428")).as(name).isTrue();
                }
            }
        }
        int examples = document.findValues("example").size();
        assertThat(operations).isGreaterThanOrEqualTo(37);
        System.out.printf("openapi: %d operations, %d responses, %d examples%n", operations, statuses, examples);
    }

    private static List<String> parameterNames(JsonNode operation) {
        List<String> names = new ArrayList<>();
        operation.path("parameters").forEach(parameter -> names.add(parameter.path("name").asText()));
        return names;
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

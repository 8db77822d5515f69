package io.ticketing.reservations.support;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.restassured.response.ResponseBodyExtractionOptions;

/**
 * Fields of a JSON answer, read with Jackson. REST Assured's JSON paths ({@code jsonPath()}, {@code extract().path}, a
 * {@code body("field", matcher)}) compile and load a Groovy class for every field they read: in the races that was a
 * fifth of the test JVM's CPU, spent on reading ids and problem codes. Helpers that every test and every racer calls
 * read them here; a test's own one-off assertions may keep REST Assured's.
 */
public final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    /** The whole answer; {@code MissingNode} for an empty body, so that {@code path} reads nothing from it. */
    public static JsonNode of(ResponseBodyExtractionOptions body) {
        return parse(body.asString());
    }

    /** A top-level text field, or null when it is absent or null (a problem's {@code code}, a cart's {@code id}). */
    public static String text(ResponseBodyExtractionOptions body, String field) {
        return text(body.asString(), field);
    }

    /** {@link #text(ResponseBodyExtractionOptions, String)} of an answer read as text already. */
    public static String text(String body, String field) {
        JsonNode value = parse(body).path(field);
        return value.isMissingNode() || value.isNull() ? null : value.asText();
    }

    /** A request's body as JSON. */
    public static byte[] bytes(Object body) {
        try {
            return MAPPER.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A top-level number field, which must be there (a created resource's {@code id}). */
    public static long number(ResponseBodyExtractionOptions body, String field) {
        JsonNode value = of(body).path(field);
        if (!value.isNumber()) {
            throw new AssertionError("no number " + field + " in " + body.asString());
        }
        return value.asLong();
    }

    private static JsonNode parse(String body) {
        try {
            return body.isEmpty() ? MAPPER.missingNode() : MAPPER.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }
}

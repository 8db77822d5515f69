package io.ticketing.reservations.openapi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

import io.ticketing.reservations.problem.Problem;

/** The refusals {@link ApiDocument} lists for every operation: each status's problem, its codes and headers. */
final class ProblemResponses {

    /** A claim's refusals, named as one in a refusal's name: most answers that sell carry all of them. */
    private static final List<String> SOLD_OUT = List.of(ApiDocs.SOLD_OUT.split(" "));

    private record Refusal(String title, String description) {
    }

    private static final Map<String, Refusal> STATUSES = Map.ofEntries(
            Map.entry("400", new Refusal("Bad Request", "The request is malformed; `errors` names each field.")),
            Map.entry("401", new Refusal("Unauthorized", "No valid bearer token.")),
            Map.entry("403", new Refusal("Forbidden", "The token's scope does not allow this.")),
            Map.entry("404", new Refusal("Not Found", "The event, or a resource named in the path, does not exist.")),
            Map.entry("406", new Refusal("Not Acceptable", "The client accepts no JSON.")),
            Map.entry("409", new Refusal("Conflict", "Refused as things stand; `code` says why.")),
            Map.entry("412", new Refusal("Precondition Failed", "The resource changed since it was read.")),
            Map.entry("413", new Refusal("Content Too Large", "The request is too large.")),
            Map.entry("414", new Refusal("URI Too Long", "The request URI is too long.")),
            Map.entry("415", new Refusal("Unsupported Media Type", "The body is not application/json.")),
            Map.entry("422", new Refusal("Unprocessable Content", "The Idempotency-Key was used for another request.")),
            Map.entry("428", new Refusal("Precondition Required", "If-Match is missing.")),
            Map.entry("429",
                    new Refusal("Too Many Requests", "As many as this client may have; retry after `Retry-After`"
                            + " seconds.")),
            Map.entry("431", new Refusal("Request Header Fields Too Large", "The request's headers are too large.")),
            Map.entry("503", new Refusal("Service Unavailable",
                    "Too busy, or the database did not answer; retry after `Retry-After` seconds with the same"
                            + " Idempotency-Key.")));

    private ProblemResponses() {
    }

    /**
     * The name of the refusal carrying {@code codes}, as they are listed: {@code quota_exhausted in_use} is
     * {@code QuotaExhaustedOrInUse}.
     */
    static String name(Set<String> codes) {
        List<String> words = new ArrayList<>();
        Set<String> rest = new LinkedHashSet<>(codes);
        if (rest.containsAll(SOLD_OUT)) {
            rest.removeAll(SOLD_OUT);
            words.add("SoldOut");
        }
        rest.forEach(code -> words.add(Arrays.stream(code.split("_"))
                .map(word -> Character.toUpperCase(word.charAt(0)) + word.substring(1)).collect(Collectors.joining())));
        return String.join("Or", words);
    }

    /** The answer of {@code status} whose problem carries one of {@code codes}, with an example and its headers. */
    static APIResponse of(String status, Set<String> codes) {
        Refusal refusal = STATUSES.get(status);
        List<Object> values = new ArrayList<>(codes);
        // The Problem schema itself, with the codes this answer can carry; not allOf, which validators and
        // generators read as a closed object.
        Schema schema = problemSchema().addProperty("code", OASFactory.createSchema().addType(SchemaType.STRING)
                .description("What happened, for a program.").enumeration(values));
        Map<String, Object> example = new LinkedHashMap<>();
        example.put("type", "about:blank");
        example.put("title", refusal.title());
        example.put("status", Integer.parseInt(status));
        example.put("detail", refusal.description());
        example.put("code", values.get(0));
        if (status.equals("400")) {
            example.put("errors", List.of(Map.of("field", "price", "message", "must be a decimal string")));
        }
        APIResponse response = OASFactory.createAPIResponse()
                .description(refusal.description() + " Codes: " + String.join(", ", codes) + ".")
                .content(OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE,
                        OASFactory.createMediaType().schema(schema.example(example))));
        if (status.equals("503") || status.equals("429") || codes.contains("idempotency_key_in_use")) {
            response.addHeader("Retry-After", OASFactory.createHeader().required(status.equals("503"))
                    .description("Seconds to wait before retrying.").schema(ApiDocument.integer()));
        }
        if (status.equals("401")) {
            response.addHeader("WWW-Authenticate", OASFactory.createHeader().required(true)
                    .description("`Bearer realm=\"inventory\"`").schema(ApiDocument.string(null)));
        }
        return response;
    }

    private static Schema problemSchema() {
        return OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("An RFC 9457 problem. Further members name what ran out (`item_id`, `quota_id`,"
                        + " `seat_guid`, `voucher_code`, `available_number`, ...).")
                .addProperty("type", ApiDocument.string("Always `about:blank`."))
                .addProperty("title", ApiDocument.string("The HTTP status in words."))
                .addProperty("status", ApiDocument.integer())
                .addProperty("detail", ApiDocument.string("What happened, for a person."))
                .addProperty("code", ApiDocument.string("What happened, for a program."))
                .addProperty("errors", OASFactory.createSchema().addType(SchemaType.ARRAY)
                        .items(OASFactory.createSchema().ref("#/components/schemas/FieldError")))
                .required(List.of("type", "title", "status", "code"))
                .additionalPropertiesBoolean(true);
    }
}

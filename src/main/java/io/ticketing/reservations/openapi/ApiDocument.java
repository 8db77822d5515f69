package io.ticketing.reservations.openapi;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

import io.ticketing.reservations.http.PageRequest;

/**
 * Completes the OpenAPI document with what every operation of the API shares (contract section 4), so that the
 * annotations on a resource say only what is particular to it: its success responses, and its domain refusals as
 * {@code @APIResponse}s carrying their codes in the {@value #CODES} extension ({@link ApiDocs}). Added here:
 * <ul>
 * <li>the bearer schemes that may call each operation ({@code storefront}, {@code admin}, {@code platform}, from its
 * {@code @RolesAllowed}), with 401 and 403;</li>
 * <li>the HTTP layer's refusals (400, 404, 406, 413, 414, 415, 431) and 503 when too busy;</li>
 * <li>{@code Idempotency-Key} on every POST with its 409 and 422, {@code If-Match} on every PATCH (and every
 * operation that reads it) with 412 and 428; optional on a PUT, which replaces the whole, with 412;</li>
 * <li>every refusal as {@code application/problem+json} whose {@code code} lists the values it can carry, with an
 * example; {@code Retry-After} and {@code WWW-Authenticate} where they are sent; {@code ETag} on versioned
 * resources.</li>
 * </ul>
 * Each of these is written once, in {@code components}, and referenced ({@link SharedComponents}): a storefront
 * team loads and reads the document in one sitting.
 */
public class ApiDocument implements OASFilter {

    /** The extension by which a resource lists the problem codes of a response; replaced by the schema here. */
    public static final String CODES = "x-problem-codes";
    /** The waiting room's header (contract section 8): an operation that takes it refuses without it. */
    private static final String ADMISSION_TOKEN = "Admission-Token";

    private static final String API = "/api/v1/";
    /** The bearer tokens by what they may do (contract section 11); each operation lists those that may call it. */
    private static final Map<String, String> SCHEMES = Map.of(
            "storefront",
            "A storefront token: an organizer's API token of scope `storefront`, or one from the service's"
                    + " configuration (`AUTH_STOREFRONT_TOKENS`). It may sit in a browser: it reads availability,"
                    + " holds, checks out and reads an order by its code, on its organizer's events.",
            "admin", "An admin token: an organizer's API token of scope `admin`, limited to its organizer's events (or"
                    + " to those listed when it was made); it may do all a storefront token may too.",
            "checkin", "A check-in token: an organizer's API token of scope `checkin`, for a scanner at the doors. It"
                    + " scans tickets and reads check-in lists, on its organizer's events, and nothing else.",
            "platform", "A platform token, from the service's configuration (`AUTH_ADMIN_TOKENS`): everything, on"
                    + " every organizer, and the organizers themselves.");
    /**
     * Who may call an operation, by the scheme its resource names beside its {@code @RolesAllowed} (the same role,
     * checked by {@code ArchitectureTest}): that scheme's tokens and every mightier one.
     */
    private static final Map<String, List<String>> CALLERS = Map.of(
            "storefront", List.of("storefront", "admin", "platform"),
            "checkin", List.of("checkin", "admin", "platform"),
            "admin", List.of("admin", "platform"),
            "platform", List.of("platform"));
    private static final String INSTANT_REF = "#/components/schemas/Instant";
    /** Representations whose version is their ETag (optimistic concurrency). */
    private static final Set<String> VERSIONED = Set.of("EventView", "ItemView", "QuotaView", "VoucherView",
            "SeatView", "SeatingPlanView");

    @Override
    public void filterOpenAPI(OpenAPI api) {
        if (api.getComponents().getSecuritySchemes() != null) {
            new ArrayList<>(api.getComponents().getSecuritySchemes().keySet())
                    .forEach(name -> api.getComponents().removeSecurityScheme(name));
        }
        SCHEMES.forEach((name, description) -> api.getComponents().addSecurityScheme(name,
                OASFactory.createSecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                        .description(description)));
        api.servers(List.of(OASFactory.createServer().url("/")
                .description("The service that serves this document, at the same address.")));
        api.getComponents().addSchema("FieldError", OASFactory.createSchema().addType(SchemaType.OBJECT)
                .addProperty("field", string("The field, in snake_case, such as `positions[0].quantity`."))
                .addProperty("message", string("What is wrong with it.")).required(List.of("field", "message")));
        api.getComponents().getSchemas().values().forEach(ApiDocument::inlineTimes);
        api.getComponents().removeSchema(INSTANT_REF.substring(INSTANT_REF.lastIndexOf('/') + 1));
        SharedComponents shared = new SharedComponents(api.getComponents());
        api.getPaths().getPathItems().forEach((path, item) -> {
            if (path.startsWith(API)) {
                item.getOperations().forEach((method, operation) -> complete(path, method, operation, shared));
            }
        });
    }

    /** A time is an RFC 3339 string, inline, as clients' generators and validators read it most simply. */
    private static void inlineTimes(Schema schema) {
        if (INSTANT_REF.equals(schema.getRef())) {
            schema.setRef(null);
            schema.addType(SchemaType.STRING);
            schema.setFormat("date-time");
            schema.setExample("2026-11-23T18:00:00Z");
        }
        if (schema.getProperties() != null) {
            schema.getProperties().values().forEach(ApiDocument::inlineTimes);
        }
        if (schema.getItems() != null) {
            inlineTimes(schema.getItems());
        }
    }

    private static void complete(String path, PathItem.HttpMethod method, Operation operation,
            SharedComponents shared) {
        List<String> declared = operation.getSecurity() == null
                ? List.of()
                : operation.getSecurity().stream().flatMap(requirement -> requirement.getSchemes().keySet().stream())
                        .toList();
        String fewest = declared.contains("storefront")
                ? "storefront"
                : declared.contains("checkin") ? "checkin" : declared.contains("admin") ? "admin" : "platform";
        operation.setSecurity(new ArrayList<>(CALLERS.get(fewest).stream()
                .map(scheme -> OASFactory.createSecurityRequirement().addScheme(scheme)).toList()));
        if (operation.getParameters() != null) {
            operation.getParameters().forEach(parameter -> typeQueryParameter(path, parameter));
        }
        Map<String, Set<String>> codes = new LinkedHashMap<>();
        if (operation.getResponses().getAPIResponses() != null) {
            operation.getResponses().getAPIResponses().forEach((status, response) -> {
                Object listed = response.getExtension(CODES);
                if (listed != null) {
                    codes.put(status, new LinkedHashSet<>(Arrays.asList(listed.toString().split(" "))));
                    response.removeExtension(CODES);
                }
            });
        }
        add(codes, "400", "validation_failed");
        add(codes, "401", "unauthorized");
        add(codes, "403", "forbidden");
        if (declares(operation, ADMISSION_TOKEN)) {
            replaceParameter(operation, ADMISSION_TOKEN, shared.parameter("AdmissionToken", () -> header(
                    ADMISSION_TOKEN, false, "While the event's waiting room is on: the admission token of an"
                            + " admitted queue ticket of this event; without one, 403 admission_required.")
                    .schema(string(null))));
            add(codes, "403", "admission_required");
        }
        if (path.contains("{")) {
            add(codes, "404", "not_found");
        }
        add(codes, "406", "not_acceptable");
        add(codes, "413", "payload_too_large");
        add(codes, "414", "uri_too_long");
        add(codes, "431", "headers_too_large");
        add(codes, "503", "overloaded");
        add(codes, "503", "database_unavailable");
        if (operation.getRequestBody() != null) {
            add(codes, "415", "unsupported_media_type");
        }
        if (method == PathItem.HttpMethod.POST) {
            operation.addParameter(shared.parameter("IdempotencyKey", () -> header("Idempotency-Key", false,
                    "Makes a retry safe: the same key with the same body, for the same token, within 24 hours,"
                            + " replays the first answer instead of running again. 1 to 255 characters.")
                    .schema(string(null).maxLength(255))));
            add(codes, "409", "idempotency_key_in_use");
            add(codes, "422", "idempotency_key_reused");
        }
        if (method == PathItem.HttpMethod.PATCH || declares(operation, "If-Match")) {
            boolean required = method != PathItem.HttpMethod.PUT;
            replaceParameter(operation, "If-Match", ifMatch(shared, required));
            add(codes, "412", "version_conflict");
            if (required) {
                add(codes, "428", "precondition_required");
            }
        }
        if (method != PathItem.HttpMethod.GET) {
            add(codes, "503", "lock_timeout");
            add(codes, "503", "inventory_changed");
        }
        codes.forEach((status, values) -> operation.getResponses().addAPIResponse(status,
                shared.refusal(status, values)));
        operation.getResponses().getAPIResponses().forEach((status, response) -> {
            if (status.startsWith("2")) {
                describeSuccess(method, response, shared);
            }
        });
    }

    private static void add(Map<String, Set<String>> codes, String status, String code) {
        codes.computeIfAbsent(status, s -> new LinkedHashSet<>()).add(code);
    }

    private static void describeSuccess(PathItem.HttpMethod method, APIResponse response, SharedComponents shared) {
        if (response.getContent() == null) {
            return;
        }
        response.getContent().getMediaTypes().values().forEach(media -> {
            String ref = media.getSchema() == null ? null : media.getSchema().getRef();
            if (ref != null && VERSIONED.contains(ref.substring(ref.lastIndexOf('/') + 1))) {
                response.addHeader("ETag", shared.header("ETag", () -> OASFactory.createHeader().required(true)
                        .description("The version; send it back in If-Match to change the resource.")
                        .schema(string(null))));
            }
        });
        if (method == PathItem.HttpMethod.POST) {
            response.addHeader("Idempotent-Replayed", shared.header("IdempotentReplayed", () -> OASFactory
                    .createHeader().required(false)
                    .description("`true` when this answer replays the first request with the same Idempotency-Key.")
                    .schema(string(null))));
        }
    }

    /**
     * Resources read query parameters as strings to answer a malformed one with 400 rather than JAX-RS' 404; the
     * document says what they are.
     */
    private static void typeQueryParameter(String path, Parameter parameter) {
        if (parameter.getIn() != Parameter.In.QUERY) {
            return;
        }
        switch (parameter.getName()) {
            case "limit" -> parameter.description("Rows per page, 1 to " + PageRequest.MAX_LIMIT + "; "
                    + PageRequest.DEFAULT_LIMIT + " if absent.")
                    .schema(integer().minimum(BigDecimal.ONE).maximum(BigDecimal.valueOf(PageRequest.MAX_LIMIT)));
            case "cursor" -> parameter.description("The `next_cursor` of the previous page.");
            case "available" -> parameter.description("`true`: only seats that can be sold now.")
                    .schema(OASFactory.createSchema().addType(SchemaType.BOOLEAN));
            case "created_after", "created_before" -> parameter.description("An RFC 3339 time, exclusive.")
                    .schema(string(null).format("date-time"));
            case "status" -> parameter.schema(string(null).enumeration(path.endsWith("/waiting_list")
                    ? List.of("waiting", "offered", "redeemed", "expired", "canceled")
                    : List.of("pending", "paid", "expired", "canceled")));
            case "item_id" -> parameter.description("Only the entries for this item.")
                    .schema(integer().minimum(BigDecimal.ONE));
            case "email" -> parameter.description("The buyer's email, ignoring case.");
            default -> {
            }
        }
    }

    private static boolean declares(Operation operation, String header) {
        return operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(p -> header.equalsIgnoreCase(p.getName()));
    }

    /** The operation's own parameter {@code name}, or none, replaced by the shared one, in its place. */
    private static void replaceParameter(Operation operation, String name, Parameter shared) {
        List<Parameter> parameters = new ArrayList<>(
                operation.getParameters() == null ? List.of() : operation.getParameters());
        int at = parameters.indexOf(parameters.stream().filter(p -> name.equalsIgnoreCase(p.getName())).findFirst()
                .orElse(null));
        if (at < 0) {
            parameters.add(shared);
        } else {
            parameters.set(at, shared);
        }
        operation.setParameters(parameters);
    }

    private static Parameter ifMatch(SharedComponents shared, boolean required) {
        return required
                ? shared.parameter("IfMatch", () -> header("If-Match", true,
                        "The ETag of the resource as last read; a stale one is 412, none 428.").schema(string(null)))
                : shared.parameter("IfMatchOptional", () -> header("If-Match", false, "Optional: the ETag of the"
                        + " resource as last read, to replace only that version; a stale one is 412.")
                        .schema(string(null)));
    }

    private static Parameter header(String name, boolean required, String description) {
        return OASFactory.createParameter().name(name).in(Parameter.In.HEADER).required(required)
                .description(description);
    }

    static Schema string(String description) {
        return OASFactory.createSchema().addType(SchemaType.STRING).description(description);
    }

    static Schema integer() {
        return OASFactory.createSchema().addType(SchemaType.INTEGER).format("int32");
    }
}

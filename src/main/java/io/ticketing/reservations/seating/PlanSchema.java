package io.ticketing.reservations.seating;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import io.ticketing.reservations.problem.Problem.FieldError;

/**
 * pretix's seating plan format, as its published JSON Schema (draft-07) defines it, restated in
 * {@code seating/seating-plan.schema.json}, checked by networknt's validator: what the format allows is theirs to
 * say, so the service takes every plan pretix's editor exports and refuses what it would.
 */
@ApplicationScoped
class PlanSchema {

    private static final String SCHEMA = "/seating/seating-plan.schema.json";

    private final JsonSchema schema;

    PlanSchema() {
        try (InputStream in = PlanSchema.class.getResourceAsStream(SCHEMA)) {
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SCHEMA, e);
        }
    }

    /** Each way {@code plan} breaks the format, by its JSON path under {@code plan}, in the plan's order. */
    List<FieldError> problems(JsonNode plan) {
        return schema.validate(plan).stream().map(PlanSchema::problem)
                .sorted(Comparator.comparing(FieldError::field)).toList();
    }

    private static FieldError problem(ValidationMessage message) {
        String at = "plan" + message.getInstanceLocation().toString().substring(1);
        boolean aboutProperty = message.getProperty() != null
                && ("required".equals(message.getType()) || "additionalProperties".equals(message.getType()));
        return new FieldError(aboutProperty ? at + "." + message.getProperty() : at, message.getError());
    }
}

package io.ticketing.reservations.seating;

import java.util.Map;

import jakarta.validation.constraints.NotNull;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.databind.JsonNode;

/** A seating plan to import (contract section 13). */
public record SeatingPlanRequest(
        @Schema(type = SchemaType.OBJECT, implementation = Object.class, description = "a seating plan in pretix's format (its seating-plan.schema.json, JSON Schema draft-07): name, categories, size, zones of rows of seats", required = true) @NotNull JsonNode plan,
        @Schema(description = "each category's item, by the category's name; the item must require a seat", required = true, example = "{\"Stalls\": 12, \"Balcony\": 13}") @NotNull Map<@NotNull String, @NotNull Long> categories) {
}

package io.ticketing.reservations.seating;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonRawValue;

/**
 * A plan as a page draws it: the plan as imported, its mapping, and each seat of one date where it is drawn and
 * whether the caller's channel can take it now. Read without a lock: a seat shown free may be taken a moment later.
 */
public record SeatingPlanView(
        @Schema(type = SchemaType.OBJECT, description = "the plan as imported, in pretix's format") @JsonRawValue String plan,
        @Schema(type = SchemaType.OBJECT, description = "each category's item id, by the category's name", example = "{\"Stalls\": 12}") @JsonRawValue String categories,
        @Schema(description = "the plan's version, its ETag: it changes with every import") long version,
        @Schema(description = "the plan's seats, in the plan's order") List<DrawnSeat> seats) {

    /** A seat where the plan draws it: its zone's, row's and own positions added. */
    public record DrawnSeat(String guid, double x, double y, String category,
            @Schema(description = "the caller's channel can hold it now") boolean free) {
    }
}

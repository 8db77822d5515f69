package io.ticketing.reservations.seating;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import io.ticketing.reservations.problem.Problem.FieldError;

/**
 * A plan's seats as pretix reads them ({@code SeatingPlan.iter_all_seats}): a seat is drawn at its zone's position
 * plus its row's plus its own; its row and seat labels are the row's templates with {@code %s} replaced by the row's
 * and the seat's number; its rank orders zone, row, then seat, by number where the number is one, else by place.
 * Read only after {@link PlanSchema} passed the plan, so every field the schema requires is there.
 */
final class PlannedSeats {

    private static final long ROWS_PER_ZONE = 10_000L * 10_000L;
    private static final long SEATS_PER_ROW = 10_000L;
    private static final int MAX_GUID = 100;
    private static final int MAX_LABEL = 100;
    private static final int MAX_NAME = 200;
    private static final int MAX_CATEGORY = 200;

    /** One seat of the plan: the seat (section 4) it becomes, where it is drawn, and its category's name. */
    record PlanSeat(String guid, String section, String row, Integer number, String name, double x, double y,
            String category, long rank) {
    }

    private PlannedSeats() {
    }

    /** The names of the categories the plan defines, in its order. */
    static Set<String> categoriesOf(JsonNode plan) {
        Set<String> categories = new LinkedHashSet<>();
        plan.path("categories").forEach(category -> categories.add(category.path("name").asText()));
        return categories;
    }

    /**
     * The plan's seats in its order, adding to {@code errors} what the schema cannot say: a guid used twice or empty, a
     * category the plan does not define or whose name no seat can carry, a label too long to be a seat's.
     */
    static List<PlanSeat> read(JsonNode plan, List<FieldError> errors) {
        Set<String> categories = categoriesOf(plan);
        JsonNode defined = plan.path("categories");
        for (int c = 0; c < defined.size(); c++) {
            String name = defined.get(c).path("name").asText();
            if (name.isEmpty() || name.length() > MAX_CATEGORY) {
                errors.add(new FieldError("plan.categories[" + c + "].name",
                        "must have 1 to " + MAX_CATEGORY + " characters to name a seat's category"));
            }
        }
        Map<String, String> firstPlace = new HashMap<>();
        List<PlanSeat> seats = new ArrayList<>();
        JsonNode zones = plan.path("zones");
        for (int z = 0; z < zones.size(); z++) {
            JsonNode zone = zones.get(z);
            String zonePath = "plan.zones[" + z + "]";
            String section = text(zone.get("name"));
            tooLong(section, MAX_LABEL, zonePath + ".name", errors);
            double zoneX = zone.path("position").path("x").asDouble();
            double zoneY = zone.path("position").path("y").asDouble();
            JsonNode rows = zone.path("rows");
            for (int r = 0; r < rows.size(); r++) {
                JsonNode row = rows.get(r);
                String rowPath = zonePath + ".rows[" + r + "]";
                String rowNumber = row.path("row_number").asText();
                tooLong(rowNumber, MAX_LABEL, rowPath + ".row_number", errors);
                double rowX = zoneX + row.path("position").path("x").asDouble();
                double rowY = zoneY + row.path("position").path("y").asDouble();
                String rowLabel = label(text(row.get("row_label")), rowNumber);
                String seatTemplate = text(row.get("seat_label"));
                long rowRank = rankOf(rowNumber, r);
                JsonNode rowSeats = row.path("seats");
                for (int s = 0; s < rowSeats.size(); s++) {
                    JsonNode seat = rowSeats.get(s);
                    String seatPath = rowPath + ".seats[" + s + "]";
                    String guid = seat.path("seat_guid").asText();
                    String seatNumber = seat.path("seat_number").asText();
                    String category = seat.path("category").asText();
                    String other = firstPlace.putIfAbsent(guid, seatPath);
                    if (other != null) {
                        errors.add(new FieldError(seatPath + ".seat_guid", "'" + guid + "' is also the guid of "
                                + other + "; a plan's guids are unique"));
                    }
                    tooLong(guid, MAX_GUID, seatPath + ".seat_guid", errors);
                    if (guid.isEmpty()) {
                        errors.add(new FieldError(seatPath + ".seat_guid", "is empty; a seat needs a guid"));
                    }
                    if (!categories.contains(category)) {
                        errors.add(new FieldError(seatPath + ".category",
                                "'" + category + "' is not one of the plan's categories " + categories));
                    }
                    String name = nameOf(section, rowLabel, rowNumber, label(seatTemplate, seatNumber), seatNumber,
                            guid);
                    tooLong(name, MAX_NAME, seatPath, errors);
                    seats.add(new PlanSeat(guid, section, rowNumber.isEmpty() ? null : rowNumber,
                            numberOf(seatNumber), name, rowX + seat.path("position").path("x").asDouble(),
                            rowY + seat.path("position").path("y").asDouble(), category,
                            z * ROWS_PER_ZONE + rowRank * SEATS_PER_ROW + rankOf(seatNumber, s)));
                }
            }
        }
        return seats;
    }

    /** "Balcony, row 3, seat 12": the zone, the row's label or number, the seat's label or number; else the guid. */
    private static String nameOf(String section, String rowLabel, String rowNumber, String seatLabel,
            String seatNumber, String guid) {
        List<String> parts = new ArrayList<>();
        if (section != null) {
            parts.add(section);
        }
        if (rowLabel != null) {
            parts.add(rowLabel);
        } else if (!rowNumber.isEmpty()) {
            parts.add("row " + rowNumber);
        }
        if (seatLabel != null) {
            parts.add(seatLabel);
        } else if (!seatNumber.isEmpty()) {
            parts.add("seat " + seatNumber);
        }
        return parts.isEmpty() ? guid : String.join(", ", parts);
    }

    /** A row's template with every {@code %s} replaced, as pretix does; null where there is none. */
    private static String label(String template, String number) {
        return template == null ? null : template.replace("%s", number);
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() || node.asText().isBlank() ? null : node.asText().strip();
    }

    /** A seat number that is a whole number a seat can have (section 8's adjacency); else none. */
    private static Integer numberOf(String seatNumber) {
        try {
            int number = Integer.parseInt(seatNumber.strip());
            return number >= 0 ? number : null;
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }

    private static long rankOf(String number, int place) {
        Integer parsed = numberOf(number);
        return parsed == null || parsed >= SEATS_PER_ROW ? place : parsed;
    }

    private static void tooLong(String value, int max, String field, List<FieldError> errors) {
        if (value != null && value.length() > max) {
            errors.add(new FieldError(field, "is longer than " + max + " characters"));
        }
    }
}

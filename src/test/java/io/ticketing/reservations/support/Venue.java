package io.ticketing.reservations.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seating plans in pretix's format (its seating-plan.schema.json) for tests: zones of rows of seats, drawn 30
 * apart, each row 40 below the last, with a stage and its label as areas, as pretix's editor exports them. A seat's
 * guid is {@code zone-row-number}.
 */
public final class Venue {

    /** A zone: its name, its category, its rows (row numbers as strings) and seats per row. */
    public record Zone(String name, String category, List<String> rows, int seatsPerRow, double x, double y) {
    }

    private final String name;
    private final List<Zone> zones = new ArrayList<>();
    private final Map<String, String> colours = new LinkedHashMap<>();
    private int width = 1200;
    private int height = 1200;

    private Venue(String name) {
        this.name = name;
    }

    public static Venue named(String name) {
        return new Venue(name);
    }

    /** The plan's size in pixels; 1200 by 1200 unless set. */
    public Venue size(int planWidth, int planHeight) {
        width = planWidth;
        height = planHeight;
        return this;
    }

    public Venue category(String category, String colour) {
        colours.put(category, colour);
        return this;
    }

    public Venue zone(String zone, String category, List<String> rows, int seatsPerRow, double x, double y) {
        zones.add(new Zone(zone, category, rows, seatsPerRow, x, y));
        return this;
    }

    public static String guid(String zone, String row, int number) {
        return zone + "-" + row + "-" + number;
    }

    /** The plan, as a map that serialises to pretix's JSON. */
    public Map<String, Object> plan() {
        List<Object> zoneList = new ArrayList<>();
        for (Zone zone : zones) {
            List<Object> rows = new ArrayList<>();
            for (int r = 0; r < zone.rows().size(); r++) {
                String row = zone.rows().get(r);
                List<Object> seats = new ArrayList<>();
                for (int number = 1; number <= zone.seatsPerRow(); number++) {
                    seats.add(Map.of("seat_guid", guid(zone.name(), row, number), "seat_number",
                            Integer.toString(number), "position", Map.of("x", 30 * (number - 1), "y", 0), "category",
                            zone.category()));
                }
                Map<String, Object> rowMap = new LinkedHashMap<>();
                rowMap.put("row_number", row);
                rowMap.put("row_label", "row %s");
                rowMap.put("seat_label", "seat %s");
                rowMap.put("position", Map.of("x", 10, "y", 40 * r));
                rowMap.put("seats", seats);
                rows.add(rowMap);
            }
            // The stage, before the first zone.
            List<Object> areas = zoneList.isEmpty() ? stage() : List.of();
            zoneList.add(Map.of("name", zone.name(), "position", Map.of("x", zone.x(), "y", zone.y()), "rows", rows,
                    "areas", areas));
        }
        List<Object> categories = new ArrayList<>();
        colours.forEach((category, colour) -> categories.add(Map.of("name", category, "color", colour)));
        return Map.of("name", name, "categories", categories, "zones", zoneList, "size",
                Map.of("width", width, "height", height));
    }

    private static List<Object> stage() {
        return List.of(Map.of("shape", "rectangle", "position", Map.of("x", 0, "y", -60), "rectangle",
                Map.of("width", 300, "height", 40), "color", "#cccccc"),
                Map.of("shape", "text", "position", Map.of("x", 150, "y", -40), "text",
                        Map.of("text", "Stage", "position", Map.of("x", 0, "y", 0))));
    }

    /** The body of {@code PUT .../seating_plan}: the plan and each category's item. */
    public Map<String, Object> mappedTo(Map<String, Long> items) {
        return Map.of("plan", plan(), "categories", items);
    }
}

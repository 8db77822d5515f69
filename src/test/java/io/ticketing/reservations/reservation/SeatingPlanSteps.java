package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.reservation.PropertyCalls.call;
import static io.ticketing.reservations.support.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.restassured.response.Response;

/**
 * Seating plans in the property test (contract section 13): the event's seats imported as a plan of one zone a
 * seated item, a row each, with the seats moved, one dropped or one moved to another item's category. Whether it goes
 * through depends on what holds, sells and vouchers have made of the seats; either answer is a step, and the oracle
 * then checks that no seat in use vanished or changed item.
 */
final class SeatingPlanSteps {

    private final Random random;

    SeatingPlanSteps(Random random) {
        this.random = random;
    }

    String replace(PropertyEvent event) {
        int dice = random.nextInt(4);
        PropertyEvent.Seated dropFrom = dice == 1 ? event.any(event.seated) : null;
        int dropped = dropFrom == null ? 0 : 1 + random.nextInt(dropFrom.count());
        PropertyEvent.Seated moveFrom = dice == 2 && event.seated.size() > 1 ? event.any(event.seated) : null;
        int moved = moveFrom == null ? 0 : 1 + random.nextInt(moveFrom.count());
        List<Object> zones = new ArrayList<>();
        List<Object> categories = new ArrayList<>();
        Map<String, Long> items = new HashMap<>();
        int shift = random.nextInt(50);
        for (PropertyEvent.Seated seats : event.seated) {
            String category = "item-" + seats.item();
            categories.add(Map.of("name", category, "color", "#336699"));
            items.put(category, seats.item());
            List<Object> row = new ArrayList<>();
            for (int number = 1; number <= seats.count(); number++) {
                if (seats == dropFrom && number == dropped) {
                    continue;
                }
                String seatCategory = seats == moveFrom && number == moved
                        ? "item-" + event.seated.stream().filter(other -> other != moveFrom).findFirst().orElseThrow()
                                .item()
                        : category;
                row.add(Map.of("seat_guid", seats.prefix() + "-" + number, "seat_number", Integer.toString(number),
                        "position", Map.of("x", 30 * number + shift, "y", 0), "category", seatCategory));
            }
            zones.add(Map.of("name", seats.prefix(), "position", Map.of("x", 0, "y", 100 * zones.size()), "rows",
                    List.of(Map.of("row_number", "1", "position", Map.of("x", 0, "y", 0), "seats", row))));
        }
        Map<String, Object> plan = Map.of("name", "Property hall", "categories", categories, "zones", zones, "size",
                Map.of("width", 1000, "height", 1000));
        String what = "seating plan" + (dropFrom != null ? " without " + dropFrom.prefix() + "-" + dropped : "")
                + (moveFrom != null ? " with " + moveFrom.prefix() + "-" + moved + " of another item" : "");
        Response put = admin().body(Map.of("plan", plan, "categories", items))
                .put("/api/v1/events/{event}/seating_plan", event.slug);
        if (put.statusCode() == 409) {
            assertThat(put.jsonPath().getString("code")).isEqualTo("seat_in_use");
            assertThat(put.jsonPath().getList("seats")).as("names the seats in use").isNotEmpty();
        } else {
            assertThat(put.statusCode()).as("%s answered %s", what, put.asString()).isEqualTo(200);
        }
        return call(what, put);
    }
}

package io.ticketing.reservations.order;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.channelToken;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newCartWith;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefrontOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * Sales over time (contract section 12): read from the orders, grouped as asked, canceled positions apart, and bad
 * parameters a 400 that names them.
 */
@QuarkusTest
class SalesReportTest {

    private static final String SALES = "/api/v1/events/{event}/sales";

    @Test
    void salesAreGroupedByChannelAndItemPerDayWithCanceledOnesApart() {
        String boxOffice = channelToken("box-office");
        String event = newEvent("sales");
        long ticket = newItem(event, "Ticket", "10");
        long vip = newItem(event, "VIP", "25.50");
        newQuota(event, 100, List.of(ticket, vip));
        String web = newCart(event);
        addToCart(event, web, Map.of("item_id", ticket, "quantity", 3)).then().statusCode(201);
        addToCart(event, web, Map.of("item_id", vip)).then().statusCode(201);
        checkout(event, web).then().statusCode(201);
        String desk = newCartWith(boxOffice, event);
        storefrontOf(boxOffice).body(Map.of("positions", List.of(Map.of("item_id", ticket, "quantity", 2))))
                .post("/api/v1/events/{event}/carts/{cart}/positions", event, desk).then().statusCode(201);
        String canceled = storefrontOf(boxOffice).body(Map.of("cart_id", desk, "email", "desk@example.com"))
                .post("/api/v1/events/{event}/orders", event).then().statusCode(201).extract().path("code");
        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, canceled).then().statusCode(200);

        List<Map<String, Object>> rows = admin().queryParam("group_by", "channel,item")
                .queryParam("interval", "day").get(SALES, event).then().statusCode(200)
                .body("currency", equalTo("EUR")).extract().jsonPath().getList("rows");
        String today = Instant.now().truncatedTo(ChronoUnit.DAYS).toString();
        assertThat(rows).extracting(row -> row.get("period"), row -> row.get("channel"),
                row -> ((Number) row.get("item_id")).longValue(), row -> row.get("positions"),
                row -> row.get("revenue"),
                row -> row.get("canceled_positions"), row -> row.get("canceled_revenue"))
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(today, "box-office", ticket, 0, "0.00", 2, "20.00"),
                        org.assertj.core.groups.Tuple.tuple(today, "web", ticket, 3, "30.00", 0, "0.00"),
                        org.assertj.core.groups.Tuple.tuple(today, "web", vip, 1, "25.50", 0, "0.00"));

        admin().queryParam("interval", "hour").get(SALES, event).then().statusCode(200)
                .body("rows.size()", equalTo(1)).body("rows[0].positions", equalTo(4))
                .body("rows[0].revenue", equalTo("55.50")).body("rows[0].channel", equalTo(null));
        admin().queryParam("from", Instant.now().plusSeconds(60).toString()).get(SALES, event).then()
                .statusCode(200).body("rows.size()", equalTo(0));
    }

    @Test
    void badParametersAreA400ThatNamesThem() {
        String event = newEvent("sales-bad");
        admin().queryParam("interval", "week").queryParam("group_by", "channel,seat").get(SALES, event).then()
                .statusCode(400).contentType("application/problem+json")
                .body("errors.field", equalTo(List.of("interval", "group_by")));
        admin().queryParam("from", "2026-12-02T00:00:00Z").queryParam("to", "2026-12-01T00:00:00Z")
                .get(SALES, event).then().statusCode(400).body("errors[0].field", equalTo("to"));
        admin().queryParam("from", "yesterday").get(SALES, event).then().statusCode(400);
    }
}

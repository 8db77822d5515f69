package io.ticketing.reservations.cart;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/** The hand-written position is the record as Jackson writes it: same fields, same order, same values. */
class CartPositionJsonTest {

    private static ObjectMapper generic() {
        return new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .registerModule(new JavaTimeModule()).disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    }

    @Test
    void shouldWriteAPositionAsJacksonWritesTheRecord() throws Exception {
        ObjectMapper handWritten = generic();
        new CartPositionJson().customize(handWritten);
        CartView cart = new CartView("c1", null, "web", Instant.parse("2026-12-06T10:00:00Z"), "22.50", List.of(
                new CartView.Position(7, 3, null, null, "10.00", Instant.parse("2026-12-06T10:30:00Z"), null, null),
                new CartView.Position(8, 4, "A-1", "VIP", "12.50", Instant.parse("2026-12-06T10:30:00.123456Z"), 5L,
                        7L)));

        String written = handWritten.writeValueAsString(cart);

        assertThat(written).isEqualTo(generic().writeValueAsString(cart)).contains("\"seat_guid\":null")
                .contains("\"expires\":\"2026-12-06T10:30:00.123456Z\"");
    }
}

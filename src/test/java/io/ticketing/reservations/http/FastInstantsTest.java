package io.ticketing.reservations.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The hand-written time format is the formatter's, to the character. */
class FastInstantsTest {

    @Test
    void writesEveryTimeAsTheIsoInstantFormatterDoes() {
        Random random = new Random(20261125);
        long earliest = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
        long latest = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 100_000; i++) {
            long second = earliest + (long) (random.nextDouble() * (latest - earliest));
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant instant = Instant.ofEpochSecond(second, nanos);
            assertThat(FastInstants.format(instant)).isEqualTo(DateTimeFormatter.ISO_INSTANT.format(instant));
        }
        for (String edge : new String[]{"1970-01-01T00:00:00Z", "2026-11-25T23:59:59.999999999Z",
                "+10000-01-01T00:00:00Z",
                "-0001-12-31T23:59:59Z", "2026-11-23T18:00:00.100Z"}) {
            Instant instant = Instant.parse(edge);
            assertThat(FastInstants.format(instant)).isEqualTo(DateTimeFormatter.ISO_INSTANT.format(instant));
        }
    }
}

package io.ticketing.reservations.http;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import io.quarkus.jackson.ObjectMapperCustomizer;

/**
 * Times in answers are written as {@link DateTimeFormatter#ISO_INSTANT} writes them ({@code 2026-11-23T18:00:00Z},
 * with a fraction of 3, 6 or 9 digits when there is one), by hand: a cart's answer carries a deadline per position,
 * and the formatter's general machinery was the largest single cost of serializing one (benchmark scenario 1).
 * Years outside 0 to 9999, which the database does not store, go through the formatter.
 */
@Singleton
public class FastInstants implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("fast-instants").addSerializer(Instant.class, new Writer()));
    }

    /** After the modules Quarkus registers (JavaTimeModule among them), so that this one is used. */
    @Override
    public int priority() {
        return MINIMUM_PRIORITY + 1;
    }

    static final class Writer extends StdSerializer<Instant> {

        Writer() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant instant, JsonGenerator json, SerializerProvider provider) throws IOException {
            json.writeString(format(instant));
        }
    }

    public static String format(Instant instant) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), 0, ZoneOffset.UTC);
        int year = time.getYear();
        if (year < 0 || year > 9999) {
            return DateTimeFormatter.ISO_INSTANT.format(instant);
        }
        char[] out = new char[30];
        int at = digits(out, 0, year, 4);
        out[at++] = '-';
        at = digits(out, at, time.getMonthValue(), 2);
        out[at++] = '-';
        at = digits(out, at, time.getDayOfMonth(), 2);
        out[at++] = 'T';
        at = digits(out, at, time.getHour(), 2);
        out[at++] = ':';
        at = digits(out, at, time.getMinute(), 2);
        out[at++] = ':';
        at = digits(out, at, time.getSecond(), 2);
        int nanos = instant.getNano();
        if (nanos > 0) {
            out[at++] = '.';
            if (nanos % 1_000_000 == 0) {
                at = digits(out, at, nanos / 1_000_000, 3);
            } else if (nanos % 1_000 == 0) {
                at = digits(out, at, nanos / 1_000, 6);
            } else {
                at = digits(out, at, nanos, 9);
            }
        }
        out[at++] = 'Z';
        return new String(out, 0, at);
    }

    private static int digits(char[] out, int at, int value, int width) {
        for (int i = width - 1; i >= 0; i--) {
            out[at + i] = (char) ('0' + value % 10);
            value /= 10;
        }
        return at + width;
    }
}

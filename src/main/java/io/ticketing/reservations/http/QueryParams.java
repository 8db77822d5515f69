package io.ticketing.reservations.http;

import java.time.Instant;
import java.time.format.DateTimeParseException;

import io.ticketing.reservations.problem.ValidationException;

/**
 * Query parameters are read as strings and parsed here, since JAX-RS answers one it cannot convert with 404; a
 * malformed one is a 400 {@code validation_failed} naming it.
 */
public final class QueryParams {

    private QueryParams() {
    }

    public static boolean bool(String name, String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw new ValidationException(name, "must be true or false");
    }

    /** A positive id, or null when absent. */
    public static Long id(String name, String value) {
        if (value == null) {
            return null;
        }
        try {
            long id = Long.parseLong(value);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ValidationException(name, "must be a positive integer");
    }

    /** An RFC 3339 time that PostgreSQL can store, or null when absent. */
    public static Instant instant(String name, String value) {
        if (value == null) {
            return null;
        }
        try {
            Instant instant = Instant.parse(value);
            if (!instant.isBefore(StrictJson.EARLIEST) && !instant.isAfter(StrictJson.LATEST)) {
                return instant;
            }
        } catch (DateTimeParseException e) {
            // answered below
        }
        throw new ValidationException(name, "must be an RFC 3339 time such as 2026-11-23T18:00:00Z");
    }
}

package io.ticketing.reservations.http;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.ticketing.reservations.problem.ValidationException;

/**
 * {@code ?limit=} (default 50, at most 500) and {@code ?cursor=}: the id of the last row of the previous page,
 * opaque to clients so that the ordering can change without breaking them. Both are read as strings, since JAX-RS
 * answers a query parameter it cannot convert with 404.
 */
public record PageRequest(int limit, Long after) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 500;
    private static final String PREFIX = "id:";

    public static PageRequest of(String limit, String cursor) {
        return new PageRequest(parseLimit(limit), cursor == null ? null : parseCursor(cursor));
    }

    /** Rows to read: one more than the page holds, to know whether another page follows. */
    public int fetchSize() {
        return limit + 1;
    }

    /** The id after which an ascending list continues. */
    public long afterAscending() {
        return after == null ? 0 : after;
    }

    /** The id below which a newest-first list continues. */
    public long afterDescending() {
        return after == null ? Long.MAX_VALUE : after;
    }

    static String cursorAfter(long id) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((PREFIX + id).getBytes(StandardCharsets.UTF_8));
    }

    private static int parseLimit(String limit) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int value = Integer.parseInt(limit);
            if (value >= 1 && value <= MAX_LIMIT) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ValidationException("limit", "must be an integer from 1 to " + MAX_LIMIT);
    }

    private static long parseCursor(String cursor) {
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (decoded.startsWith(PREFIX)) {
                return Long.parseLong(decoded.substring(PREFIX.length()));
            }
        } catch (IllegalArgumentException e) {
            // answered below; NumberFormatException is one too
        }
        throw new ValidationException("cursor", "is not a cursor this API gave out; start again without one");
    }
}

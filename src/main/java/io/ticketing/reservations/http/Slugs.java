package io.ticketing.reservations.http;

/** What an event's or an organizer's slug may be: a URL path segment as it is, never escaped, never a dot segment. */
public final class Slugs {

    public static final String PATTERN = "[a-z0-9][a-z0-9-]{0,49}";

    private Slugs() {
    }
}

package io.ticketing.reservations.auth;

import java.util.Set;

/**
 * Who a request comes from (contract section 11): a token from configuration (the platform's admin tokens, or a
 * storefront token of every organizer), or an organizer's API token, limited to its organizer's events and, when
 * {@code eventIds} is not null, to those; {@code channel} is where the carts it opens sell (section 12). Kept on the request's security identity ({@link #ATTRIBUTE}).
 */
public record Caller(Kind kind, Long organizerId, Set<Long> eventIds, Long tokenId, String tokenPrefix,
        String channel) {

    public static final String ATTRIBUTE = Caller.class.getName();

    public enum Kind {
        /** A configured admin token: every organizer, and organizers themselves. */
        PLATFORM,
        /** A configured storefront token: every organizer's events, as a storefront. */
        CONFIGURED_STOREFRONT,
        /** An organizer's API token. */
        ORGANIZER
    }

    /** The sales channel every organizer has (contract section 12), and that of every token made without one. */
    public static final String WEB_CHANNEL = "web";

    static final Caller PLATFORM = new Caller(Kind.PLATFORM, null, null, null, null, WEB_CHANNEL);
    static final Caller CONFIGURED_STOREFRONT = new Caller(Kind.CONFIGURED_STOREFRONT, null, null, null, null,
            WEB_CHANNEL);

    /** Whether this caller may act on event {@code eventId} of organizer {@code organizerId}. */
    public boolean reaches(long organizerId, long eventId) {
        return kind != Kind.ORGANIZER
                || this.organizerId == organizerId && (eventIds == null || eventIds.contains(eventId));
    }

    /** Whether this caller may act on everything of organizer {@code organizerId} (its tokens, new events). */
    public boolean reachesAllOf(long organizerId) {
        return kind != Kind.ORGANIZER || this.organizerId == organizerId && eventIds == null;
    }

    public boolean isOrganizer() {
        return kind == Kind.ORGANIZER;
    }
}

package io.ticketing.reservations.locking;

/**
 * Which event slugs this replica knows without reading the database, and that the request's caller reaches: the event
 * gate keeps places for those only.
 */
public interface KnownEvents {

    /** Whether the event is in this replica's cache and the request's token reaches it (contract section 11). */
    boolean knownAndReachable(String slug);
}

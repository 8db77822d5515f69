package io.ticketing.reservations.locking;

/** Which event slugs this replica knows without reading the database: the event gate keeps places for those only. */
public interface KnownEvents {

    boolean known(String slug);
}

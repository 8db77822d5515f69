package io.ticketing.reservations.auth;

/** What a bearer token may do. Storefront tokens may reach browsers, so they only hold, release and buy. */
public enum Scope {
    ADMIN, STOREFRONT;

    boolean grants(Scope required) {
        return this == ADMIN || this == required;
    }
}

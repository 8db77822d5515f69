package io.ticketing.reservations.auth;

/**
 * The scopes a bearer token has, as the roles {@code @RolesAllowed} names. An admin token has both; storefront
 * tokens may reach browsers, so they only read availability, hold, release and buy.
 */
public final class Roles {

    /** The configured admin tokens: every organizer's events, and the organizers themselves (contract section 11). */
    public static final String PLATFORM = "platform";
    public static final String ADMIN = "admin";
    public static final String STOREFRONT = "storefront";

    private Roles() {
    }
}

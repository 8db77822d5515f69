package io.ticketing.reservations.auth;

/**
 * The scopes a bearer token has, as the roles {@code @RolesAllowed} names. An admin token has them all; storefront
 * tokens may reach browsers, so they only read availability, hold, release and buy; check-in tokens sit in scanners
 * at the doors, so they only scan and read check-in lists (contract section 14), and can neither buy nor see orders.
 */
public final class Roles {

    /** The configured admin tokens: every organizer's events, and the organizers themselves (contract section 11). */
    public static final String PLATFORM = "platform";
    public static final String ADMIN = "admin";
    public static final String STOREFRONT = "storefront";
    public static final String CHECKIN = "checkin";

    private Roles() {
    }
}

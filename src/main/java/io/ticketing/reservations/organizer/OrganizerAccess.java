package io.ticketing.reservations.organizer;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.ticketing.reservations.auth.Access;
import io.ticketing.reservations.auth.Caller;
import io.ticketing.reservations.http.PathParams;

/**
 * Every request naming an organizer answers 404 unless the caller's token reaches all of it (contract section 11),
 * before its body is read or checked, as for events ({@code event/EventAccess}).
 */
class OrganizerAccess {

    private final OrganizerService organizers;
    private final Access access;

    OrganizerAccess(OrganizerService organizers, Access access) {
        this.organizers = organizers;
        this.access = access;
    }

    /** Only an organizer's token is limited: the platform's reach every organizer, and its flows answer 404 alike. */
    @ServerRequestFilter(priority = 140)
    void reachable() {
        if (access.caller().filter(Caller::isOrganizer).isEmpty()) {
            return;
        }
        String slug = PathParams.of("organizer");
        if (slug != null) {
            organizers.get(slug);
        }
    }
}

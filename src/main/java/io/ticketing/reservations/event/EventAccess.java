package io.ticketing.reservations.event;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.ticketing.reservations.auth.Access;
import io.ticketing.reservations.auth.Caller;
import io.ticketing.reservations.http.PathParams;

/**
 * Every request naming an event answers 404 unless the caller's token reaches it (contract section 11), before its
 * body is read or checked: an event of another organizer, or outside the events a token is limited to, is to every
 * operation what an event that does not exist is, whatever else the request holds. On a request thread, after the
 * thread wait's check (130): reading an event the replica has not kept may wait for the database. Each flow reads its
 * event through {@link EventService} again, where the same check stands.
 */
class EventAccess {

    private final EventService events;
    private final Access access;

    EventAccess(EventService events, Access access) {
        this.events = events;
        this.access = access;
    }

    /** Only an organizer's token is limited: a configured one reaches every event, and its flows answer 404 alike. */
    @ServerRequestFilter(priority = 140)
    void reachable() {
        if (access.caller().filter(Caller::isOrganizer).isEmpty()) {
            return;
        }
        String slug = PathParams.of("event");
        if (slug != null) {
            events.get(slug);
        }
    }
}

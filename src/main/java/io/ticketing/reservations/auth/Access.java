package io.ticketing.reservations.auth;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.ContextNotActiveException;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * The caller of the request being served, for the checks that keep an organizer's token to its organizer's events
 * (contract section 11). Outside a request (background work) there is none, and nothing is limited.
 */
@ApplicationScoped
public class Access {

    /** The request's identity, through its client proxy: one lookup in the request's context a call. */
    private final SecurityIdentity identity;

    Access(SecurityIdentity identity) {
        this.identity = identity;
    }

    public Optional<Caller> caller() {
        try {
            return Optional.ofNullable(identity.<Caller>getAttribute(Caller.ATTRIBUTE));
        } catch (ContextNotActiveException outsideARequest) {
            return Optional.empty();
        }
    }

    /** The caller's sales channel (contract section 12): {@code web} for the platform's tokens and outside requests. */
    public String channel() {
        return caller().map(Caller::channel).orElse(Caller.WEB_CHANNEL);
    }

    /** Whether the caller, if any, may act on event {@code eventId} of organizer {@code organizerId}. */
    public boolean reaches(long organizerId, long eventId) {
        return caller().map(caller -> caller.reaches(organizerId, eventId)).orElse(true);
    }
}

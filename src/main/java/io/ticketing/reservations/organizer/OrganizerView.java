package io.ticketing.reservations.organizer;

import java.time.Instant;

/** An organizer as the API shows it. */
public record OrganizerView(String slug, String name, Instant createdAt, long version) {

    static OrganizerView of(Organizer organizer) {
        return new OrganizerView(organizer.slug, organizer.name, organizer.createdAt, organizer.version);
    }
}

package io.ticketing.reservations.dates;

import java.time.Instant;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.ticketing.reservations.inventory.EventOwnedEntity;

/**
 * One date of an event series (contract section 10): a screening, a tour date, a museum slot. Its quotas and seats
 * are its own; positions name it. An inactive date sells nothing; a pass counts on it all the same, so that it is never
 * past a quota once it is back on sale.
 */
@Entity
@Table(name = "event_dates")
public class EventDate extends EventOwnedEntity {

    public String name;

    @Column(name = "starts_at")
    public Instant startsAt;

    @Column(name = "ends_at")
    public Instant endsAt;

    public boolean active = true;

    public static Optional<EventDate> findInEvent(long eventId, long dateId) {
        return find("id = ?1 and eventId = ?2", dateId, eventId).firstResultOptional();
    }
}

package io.ticketing.reservations.inventory;

import jakarta.persistence.Column;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.Version;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** What every inventory row has: an id, the event it belongs to, and the version that is its ETag. */
@MappedSuperclass
public abstract class EventOwnedEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "event_id")
    public long eventId;

    @Version
    public long version;
}

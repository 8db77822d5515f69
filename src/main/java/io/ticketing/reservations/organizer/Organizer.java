package io.ticketing.reservations.organizer;

import java.time.Instant;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A tenant of the platform (contract section 11): every event belongs to one, and its tokens reach only its events. */
@Entity
@Table(name = "organizers")
public class Organizer extends PanacheEntityBase {

    /** The organizer of the events made before organizers, and of those a platform token makes without naming one. */
    public static final String DEFAULT = "default";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String slug;

    public String name;

    @Version
    public long version;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;

    public static Optional<Organizer> findBySlug(String slug) {
        return find("slug", slug).firstResultOptional();
    }
}

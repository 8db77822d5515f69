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

/**
 * Where an organizer's tickets are sold (contract section 12): the web shop, a box office, a reseller. Every organizer
 * has {@code web} ({@code Caller.WEB_CHANNEL}); tokens, carts, orders, items and seats name a channel by its slug, which never changes.
 */
@Entity
@Table(name = "channels")
public class Channel extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "organizer_id")
    public long organizerId;

    public String slug;

    public String name;

    @Version
    public long version;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;

    public static Optional<Channel> find(long organizerId, String slug) {
        return find("organizerId = ?1 and slug = ?2", organizerId, slug).firstResultOptional();
    }
}

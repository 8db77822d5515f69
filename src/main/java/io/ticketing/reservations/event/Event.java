package io.ticketing.reservations.event;

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

/** One sale. The slug is its public name in every URL. */
@Entity
@Table(name = "events")
public class Event extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String slug;

    /** The organizer the event belongs to (contract section 11); never changes. */
    @Column(name = "organizer_id", updatable = false)
    public long organizerId;

    public String name;

    public String currency;

    @Column(name = "cart_ttl_seconds")
    public int cartTtlSeconds = 1800;

    @Column(name = "payment_term_seconds")
    public int paymentTermSeconds = 1_209_600;

    /** How many tickets of this event one buyer may hold and buy across carts and orders; null: no limit. */
    @Column(name = "max_per_buyer")
    public Integer maxPerBuyer;

    /** While on, the event's cart endpoints need an admission token from its waiting room (contract section 8). */
    @Column(name = "waiting_room_enabled")
    public boolean waitingRoomEnabled;

    /** How many queued buyers the waiting room admits a minute; set whenever the room is on. */
    @Column(name = "admission_per_minute")
    public Integer admissionPerMinute;

    /** When the waiting room starts admitting; tickets taken before it are admitted in random order. */
    @Column(name = "opens_at")
    public Instant opensAt;

    /** While on, buyers of an item that cannot sell may join its waiting list (contract section 9). */
    @Column(name = "waiting_list_enabled")
    public boolean waitingListEnabled;

    /** How long an offer from the waiting list may be used. */
    @Column(name = "offer_ttl_seconds")
    public int offerTtlSeconds = 86_400;

    @Version
    public long version;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;

    public static Optional<Event> findBySlug(String slug) {
        return find("slug", slug).firstResultOptional();
    }
}

package io.ticketing.reservations.inventory;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Table;

/** A capacity shared by items; {@code size == null} is unlimited and never locked. */
@Entity
@Table(name = "quotas")
public class Quota extends EventOwnedEntity {

    public String name;

    public Integer size;

    /** The date of the event this quota belongs to (contract section 10); null: the whole event. Never changes. */
    @Column(name = "date_id", updatable = false)
    public Long dateId;

    @ElementCollection
    @CollectionTable(name = "quota_items", joinColumns = @JoinColumn(name = "quota_id"))
    @Column(name = "item_id")
    public Set<Long> itemIds = new LinkedHashSet<>();

    public static Optional<Quota> findInEvent(long eventId, long quotaId) {
        return find("id = ?1 and eventId = ?2", quotaId, eventId).firstResultOptional();
    }

    public boolean isUnlimited() {
        return size == null;
    }
}

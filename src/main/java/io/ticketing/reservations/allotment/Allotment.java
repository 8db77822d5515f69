package io.ticketing.reservations.allotment;

import java.time.Instant;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.ticketing.reservations.inventory.EventOwnedEntity;

/**
 * A part of a quota kept for one sales channel until {@code releaseAt} (contract section 12); null: until deleted.
 * What it keeps is counted with the quota ({@link AllotmentCount}), never stored.
 */
@Entity
@Table(name = "allotments")
public class Allotment extends EventOwnedEntity {

    @Column(name = "quota_id", updatable = false)
    public long quotaId;

    @Column(updatable = false)
    public String channel;

    public int size;

    @Column(name = "release_at")
    public Instant releaseAt;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;

    static Optional<Allotment> findInQuota(long quotaId, long allotmentId) {
        return find("id = ?1 and quotaId = ?2", allotmentId, quotaId).firstResultOptional();
    }

    static Optional<Allotment> findForChannel(long quotaId, String channel) {
        return find("quotaId = ?1 and channel = ?2", quotaId, channel).firstResultOptional();
    }

    /** Whether an allotment released at {@code releaseAt} keeps anything at {@code now}. */
    static boolean keepsAt(Instant releaseAt, Instant now) {
        return releaseAt == null || releaseAt.isAfter(now);
    }
}

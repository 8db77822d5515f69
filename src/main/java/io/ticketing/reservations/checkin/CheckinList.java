package io.ticketing.reservations.checkin;

import java.util.List;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.ticketing.reservations.inventory.EventOwnedEntity;

/**
 * A check-in list (contract section 14): the tickets valid at some doors, by item and date, and how they may enter.
 * Where each position stands on it is not here but in {@code checkin_states}, one row per position, so that scans at
 * many gates never queue on this row.
 */
@Entity
@Table(name = "checkin_lists")
public class CheckinList extends EventOwnedEntity {

    public String name;

    /** The items valid on it; null: every item. */
    @JdbcTypeCode(SqlTypes.ARRAY)
    public List<Long> items;

    /** The date it is for; null: every date. A pass (no date of its own) is valid on every date's list. */
    @Column(name = "date_id")
    public Long dateId;

    @Column(name = "allow_pending")
    public boolean allowPending;

    @Column(name = "allow_multiple_entries")
    public boolean allowMultipleEntries;

    @Column(name = "allow_entry_after_exit")
    public boolean allowEntryAfterExit = true;

    static Optional<CheckinList> findInEvent(long eventId, long listId) {
        return find("id = ?1 and eventId = ?2", listId, eventId).firstResultOptional();
    }
}

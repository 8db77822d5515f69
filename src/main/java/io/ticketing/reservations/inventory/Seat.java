package io.ticketing.reservations.inventory;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** One place in a seating plan, sold as its item; a blocked seat is never sold. */
@Entity
@Table(name = "seats")
public class Seat extends EventOwnedEntity {

    public String guid;

    public String name;

    @Column(name = "item_id")
    public long itemId;

    public boolean blocked;

    /** The sales channels it is kept for, by slug (contract section 12); null: every one. */
    @JdbcTypeCode(SqlTypes.ARRAY)
    public List<String> channels;

    /** The date of the event this seat belongs to (contract section 10); null: the whole event. Never changes. */
    @Column(name = "date_id", updatable = false)
    public Long dateId;

    /** The seat {@code guid} of {@code dateId} (null: of no date). */
    public static Optional<Seat> findByGuid(long eventId, Long dateId, String guid) {
        return dateId == null
                ? find("eventId = ?1 and guid = ?2 and dateId is null", eventId, guid).firstResultOptional()
                : find("eventId = ?1 and guid = ?2 and dateId = ?3", eventId, guid, dateId).firstResultOptional();
    }

    /** The seats with these guids, of every date. */
    public static List<Seat> listByGuids(long eventId, Collection<String> guids) {
        return guids.isEmpty() ? List.of() : list("eventId = ?1 and guid in ?2", eventId, guids);
    }

    /** The guids of these seats, for the views of carts and orders; looking up a null id gives null. */
    public static Map<Long, String> guidsOf(Collection<Long> seatIds) {
        return seatIds.isEmpty()
                ? Collections.<Long, String>emptyMap()
                : Seat.<Seat>list("id in ?1", seatIds).stream()
                        .collect(Collectors.toMap(seat -> seat.id, seat -> seat.guid));
    }
}

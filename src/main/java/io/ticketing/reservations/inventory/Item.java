package io.ticketing.reservations.inventory;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A ticket type. It sells only while it is in at least one quota and every one of its quotas has room. */
@Entity
@Table(name = "items")
public class Item extends EventOwnedEntity {

    public String name;

    public BigDecimal price;

    @Column(name = "requires_seat")
    public boolean requiresSeat;

    public boolean active = true;

    /** How many of this item one buyer may hold and buy across carts and orders; null: no limit. */
    @Column(name = "max_per_buyer")
    public Integer maxPerBuyer;

    /** A pass: one position that counts on every date of the event, on sale or not (contract section 10). */
    @Column(name = "every_date")
    public boolean everyDate;

    /** The sales channels it sells in, by slug (contract section 12); null: every one. */
    @JdbcTypeCode(SqlTypes.ARRAY)
    public List<String> channels;

    public static Optional<Item> findInEvent(long eventId, long itemId) {
        return find("id = ?1 and eventId = ?2", itemId, eventId).firstResultOptional();
    }

    public static List<Item> listForEvent(long eventId) {
        return list("eventId = ?1 order by id", eventId);
    }
}

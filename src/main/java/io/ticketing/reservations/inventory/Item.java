package io.ticketing.reservations.inventory;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.ticketing.reservations.jdbc.Jdbc;

/** A ticket type. It sells only while it is in at least one quota and every one of its quotas has room. */
@Entity
@Table(name = "items")
public class Item extends EventOwnedEntity {

    public String name;

    public BigDecimal price;

    @Column(name = "requires_seat")
    public boolean requiresSeat;

    public boolean active = true;

    /** The statement behind {@link #inEvent}. Public for the benchmark, which runs it through pgbench. */
    public static final String IN_EVENT = "SELECT id, event_id, version, name, price, requires_seat, active"
            + " FROM items WHERE id = ANY(:ids) AND event_id = :event";

    /**
     * The event's items with these ids, not managed by Hibernate: for reading only, in a round trip with other
     * queries. Ids of other events are absent.
     */
    public static Jdbc.Query<Item> inEvent(Jdbc jdbc, long eventId, Collection<Long> ids) {
        return jdbc.statement(IN_EVENT).set("ids", ids.toArray(Long[]::new)).set("event", eventId).reading(row -> {
            Item item = new Item();
            item.id = row.getLong(1);
            item.eventId = row.getLong(2);
            item.version = row.getLong(3);
            item.name = row.getString(4);
            item.price = row.getBigDecimal(5);
            item.requiresSeat = row.getBoolean(6);
            item.active = row.getBoolean(7);
            return item;
        });
    }

    public static Optional<Item> findInEvent(long eventId, long itemId) {
        return find("id = ?1 and eventId = ?2", itemId, eventId).firstResultOptional();
    }

    public static List<Item> listForEvent(long eventId) {
        return list("eventId = ?1 order by id", eventId);
    }
}

package io.ticketing.reservations.inventory;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.persistence.Column;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.Version;

import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;

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

    /**
     * The rows of {@code type} with these ids that belong to the event, by id; ids of other events are absent.
     * Loaded by id with one array parameter, so no query is translated per call (an {@code in} list is).
     */
    public static <T extends EventOwnedEntity> Map<Long, T> byIds(Class<T> type, long eventId, Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        return Panache.getSession(type).findMultiple(type, List.copyOf(ids)).stream()
                .filter(row -> row != null && row.eventId == eventId)
                .collect(Collectors.toMap(row -> row.id, Function.identity()));
    }

    /** One page of the event's rows of {@code type} in id order, read as {@link Page#of} needs them. Never locks. */
    public static <T extends EventOwnedEntity> List<T> pageOf(Class<T> type, long eventId, PageRequest page) {
        return Panache.getEntityManager(type)
                .createQuery("from " + type.getSimpleName() + " where eventId = :event and id > :after order by id",
                        type)
                .setParameter("event", eventId).setParameter("after", page.afterAscending())
                .setMaxResults(page.fetchSize()).getResultList();
    }
}

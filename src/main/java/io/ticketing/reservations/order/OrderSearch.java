package io.ticketing.reservations.order;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.problem.ValidationException;

/** The admin's order list: newest first, by status, buyer's email and creation time. Never locks. */
@ApplicationScoped
public class OrderSearch {

    /** What to look for; null fields do not filter. */
    public record Filter(String status, String email, Instant createdAfter, Instant createdBefore) {

        public Filter {
            if (status != null && !STATUSES.contains(status)) {
                throw new ValidationException("status", "must be one of " + String.join(", ", STATUSES));
            }
        }
    }

    /** An order in a list: its total and number of positions, without them; GET it by code for the rest. */
    public record OrderSummary(String code, String status, String email, String currency, String total,
            int positions, Instant expires, Instant createdAt, long version) {
    }

    private record Row(long id, OrderSummary summary) {
    }

    private static final List<String> STATUSES = List.of("pending", "paid", "expired", "canceled");

    /**
     * Newest first by id, which never changes, so paging while orders are placed neither repeats nor skips one
     * that existed at the first page. Each filter adds a fixed condition; values are bound, never spliced.
     */
    private static final String SELECT = """
            SELECT o.id, o.code, o.status, o.email, o.expires, o.created_at, o.version,
                   (SELECT coalesce(sum(p.price), 0) FROM order_positions p WHERE p.order_id = o.id),
                   (SELECT count(*) FROM order_positions p WHERE p.order_id = o.id)
            FROM orders o WHERE o.event_id = :event AND o.id < :before""";
    private static final Map<String, String> CONDITIONS = Map.of(
            "status", " AND o.status = :status",
            "email", " AND lower(o.email) = lower(:email)",
            "createdAfter", " AND o.created_at > :createdAfter",
            "createdBefore", " AND o.created_at < :createdBefore");
    private static final String ORDER = " ORDER BY o.id DESC LIMIT :limit";

    private final EntityManager entityManager;

    OrderSearch(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<OrderSummary> list(Event event, Filter filter, PageRequest page) {
        Map<String, Object> values = new TreeMap<>();
        putIfPresent(values, "status", filter.status());
        putIfPresent(values, "email", filter.email() == null ? null : filter.email().toLowerCase(Locale.ROOT));
        putIfPresent(values, "createdAfter", filter.createdAfter());
        putIfPresent(values, "createdBefore", filter.createdBefore());
        StringBuilder sql = new StringBuilder(SELECT);
        values.keySet().forEach(name -> sql.append(CONDITIONS.get(name)));
        Query query = entityManager.createNativeQuery(sql.append(ORDER).toString()).setParameter("event", event.id)
                .setParameter("before", page.afterDescending()).setParameter("limit", page.fetchSize());
        values.forEach(query::setParameter);
        List<Row> rows = ((List<?>) query.getResultList()).stream().map(Object[].class::cast)
                .map(row -> new Row(((Number) row[0]).longValue(), new OrderSummary((String) row[1], (String) row[2],
                        (String) row[3], event.currency, ((BigDecimal) row[7]).toPlainString(),
                        ((Number) row[8]).intValue(), instant(row[4]), instant(row[5]), ((Number) row[6]).longValue())))
                .toList();
        return Page.of(rows, page, Row::id).map(Row::summary);
    }

    private static void putIfPresent(Map<String, Object> values, String name, Object value) {
        if (value != null) {
            values.put(name, value);
        }
    }

    private static Instant instant(Object column) {
        return column instanceof OffsetDateTime time ? time.toInstant() : (Instant) column;
    }
}

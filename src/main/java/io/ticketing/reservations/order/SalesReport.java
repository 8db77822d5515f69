package io.ticketing.reservations.order;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.problem.Problem;
import io.ticketing.reservations.problem.ValidationException;

/**
 * Sales over time (contract section 12): positions and revenue of the orders placed in {@code [from, to)}, per hour
 * or day (UTC) and as grouped, read from the orders themselves, so no second store can drift from them. Pending and
 * paid orders count; canceled ones are in columns of their own; expired ones sold nothing. An order counts when it
 * was placed, with the positions it has now (an order change replaces them). Never locks.
 */
@ApplicationScoped
public class SalesReport {

    private static final List<String> GROUPS = List.of("channel", "item", "date");
    private static final List<String> INTERVALS = List.of("hour", "day");

    /**
     * One pass over the event's orders ({@code orders_event_newest}; V28 says why there is no index by time) and their
     * positions, those of the range kept. A column not grouped by is null in every row: {@code CASE} on a parameter
     * keeps one generic plan for every grouping.
     */
    private static final String SALES = """
            SELECT date_trunc(:interval, o.created_at, 'UTC') AS period,
              CASE WHEN :by_channel THEN o.channel END AS channel,
              CASE WHEN :by_item THEN p.item_id END AS item_id,
              CASE WHEN :by_date THEN p.date_id END AS date_id,
              count(*) FILTER (WHERE o.status <> 'canceled'),
              coalesce(sum(p.price) FILTER (WHERE o.status <> 'canceled'), 0.00),
              count(*) FILTER (WHERE o.status = 'canceled'),
              coalesce(sum(p.price) FILTER (WHERE o.status = 'canceled'), 0.00)
            FROM orders o JOIN order_positions p ON p.order_id = o.id
            WHERE o.event_id = :event AND o.created_at >= :from AND o.created_at < :to
              AND o.status IN ('pending', 'paid', 'canceled')
            GROUP BY 1, 2, 3, 4 ORDER BY 1, 2 NULLS FIRST, 3 NULLS FIRST, 4 NULLS FIRST""";

    /** One period of one group: what was sold then, and what of it was canceled since. */
    public record Row(Instant period, @Schema(nullable = true) String channel, @Schema(nullable = true) Long itemId,
            @Schema(nullable = true) Long dateId, long positions, String revenue, long canceledPositions,
            String canceledRevenue) {
    }

    public record Report(String interval, List<String> groupBy,
            @Schema(nullable = true, implementation = String.class, format = "date-time") Instant from,
            @Schema(nullable = true, implementation = String.class, format = "date-time") Instant to, String currency,
            List<Row> rows) {
    }

    private final Jdbc jdbc;

    SalesReport(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** {@code groupBy}: comma separated, of channel, item and date; {@code interval}: hour or day (default). */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Report of(Event event, String groupBy, String interval, Instant from, Instant to) {
        Set<String> groups = groups(groupBy);
        String period = interval == null || interval.isBlank() ? "day" : interval;
        List<Problem.FieldError> errors = new ArrayList<>();
        if (!INTERVALS.contains(period)) {
            errors.add(new Problem.FieldError("interval", "must be hour or day"));
        }
        if (!GROUPS.containsAll(groups)) {
            errors.add(new Problem.FieldError("group_by", "must list some of channel, item, date"));
        }
        if (from != null && to != null && !from.isBefore(to)) {
            errors.add(new Problem.FieldError("to", "must be after from"));
        }
        if (!errors.isEmpty()) {
            throw new ValidationException(errors);
        }
        List<Row> rows = jdbc.statement(SALES).set("event", event.id).set("interval", period)
                .set("by_channel", groups.contains("channel")).set("by_item", groups.contains("item"))
                .set("by_date", groups.contains("date"))
                .set("from", from == null ? Instant.EPOCH : from)
                .set("to", to == null ? Instant.parse("9999-12-31T00:00:00Z") : to)
                .list(row -> new Row(Jdbc.instant(row, 1), row.getString(2), Jdbc.nullableLong(row, 3),
                        Jdbc.nullableLong(row, 4), row.getLong(5), row.getBigDecimal(6).toPlainString(),
                        row.getLong(7), row.getBigDecimal(8).toPlainString()));
        return new Report(period, List.copyOf(groups), from, to, event.currency, rows);
    }

    private static Set<String> groups(String groupBy) {
        if (groupBy == null || groupBy.isBlank()) {
            return Set.of();
        }
        return new LinkedHashSet<>(Arrays.stream(groupBy.split(",")).map(String::strip).toList());
    }
}

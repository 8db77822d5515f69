package io.ticketing.reservations.order;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
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

    private static final List<String> STATUSES = List.of("pending", "paid", "expired", "canceled");

    private final OrderRows rows;

    OrderSearch(OrderRows rows) {
        this.rows = rows;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<OrderSummary> list(Event event, Filter filter, PageRequest page) {
        return Page.of(rows.search(event.id, filter, page.afterDescending(), page.fetchSize()), page,
                OrderRows.Found::id)
                .map(found -> new OrderSummary(found.code(), found.status(), found.email(), event.currency,
                        found.total().toPlainString(), found.positions(), found.expires(), found.createdAt(),
                        found.version()));
    }
}

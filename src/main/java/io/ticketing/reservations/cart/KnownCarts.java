package io.ticketing.reservations.cart;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The positions of carts as this replica's last batch of adds left them, each under the revision of the cart's row
 * that goes with them: the row's {@code xmin}, the transaction that last wrote it. A batch sends the revisions it
 * knows with its lock, and reads the positions only of the carts whose row another transaction wrote since
 * ({@link CartBatchRows}); an add to a cart of tens of positions then reads and decodes none of them again.
 *
 * <p>What it relies on: every statement that changes a cart's positions writes the cart's row in the same
 * transaction (an add's lock moves its deadline, an extend moves it, a removal touches it, a checkout deletes it),
 * with one exception: deleting an item, voucher or date deletes the expired holds of it ({@code ExpiredHolds}) from
 * carts it does not lock. So a cart with a position expired, or about to ({@link #CLOCK_MARGIN} for a database
 * clock ahead of ours), is never answered from here. A revision is a transaction id: an aborted batch's never
 * becomes a row's, so what it put here never matches. And what was read from the database more than
 * {@link #MAX_AGE} ago is read again, however often batches added to it since: a writer that broke the rule above (a
 * replica of an older build, in a rolling upgrade, removed positions without writing the cart's row) is seen within
 * that time. Per replica, at most {@link #MAX_CARTS} carts: past that it starts again empty, which costs one read a
 * cart.
 */
@ApplicationScoped
class KnownCarts {

    static final int MAX_CARTS = 20_000;
    static final Duration CLOCK_MARGIN = Duration.ofMinutes(1);
    static final Duration MAX_AGE = Duration.ofSeconds(30);

    /** A revision of a cart's row, and when the positions known at it were last read from the database. */
    record Revision(long revision, Instant readAt) {
    }

    /**
     * A cart's positions at a revision of its row; {@code firstExpiry}, the earliest deadline among them (null for
     * none), kept so that a look-up does not go through a cart of tens of positions.
     */
    record Known(Revision revision, List<CartPosition> positions, Instant firstExpiry) {

        /** Whether it may answer at {@code now}: read recently, and none of its positions expired or about to. */
        boolean usableAt(Instant now) {
            return revision.readAt().isAfter(now.minus(MAX_AGE))
                    && (firstExpiry == null || firstExpiry.isAfter(now.plus(CLOCK_MARGIN)));
        }
    }

    private final Map<String, Known> carts = new ConcurrentHashMap<>();

    /** What is known of each of {@code cartIds} that may be answered from here at {@code now}. */
    Map<String, Known> usableAt(String[] cartIds, Instant now) {
        Map<String, Known> usable = new HashMap<>();
        for (String id : cartIds) {
            Known known = carts.get(id);
            if (known != null && known.usableAt(now)) {
                usable.put(id, known);
            }
        }
        return usable;
    }

    void remember(String cartId, Revision revision, List<CartPosition> positions) {
        if (carts.size() >= MAX_CARTS) {
            carts.clear();
        }
        Instant firstExpiry = null;
        for (CartPosition position : positions) {
            if (firstExpiry == null || position.expires().isBefore(firstExpiry)) {
                firstExpiry = position.expires();
            }
        }
        carts.put(cartId, new Known(revision, List.copyOf(positions), firstExpiry));
    }
}

package io.ticketing.reservations.cart;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The positions of carts as this replica's last batch of adds left them, each under the revision of the cart's row
 * that goes with them: the row's {@code xmin}, the transaction that last wrote it, on a database server's run (its
 * start time). A batch sends the revisions it knows with its lock, and reads the positions only of the carts whose row
 * another transaction wrote since ({@link CartBatchRows}); an add to a cart of tens of positions then reads and
 * decodes none of them again.
 *
 * <p>What it relies on: every statement that changes a cart's positions writes the cart's row in the same
 * transaction (an add's lock moves its deadline, an extend moves it, a removal touches it, a checkout deletes it),
 * with one exception: deleting an item, voucher or date deletes the expired holds of it ({@code ExpiredHolds}) from
 * carts it does not lock. So a cart with a position expired, or about to ({@link #CLOCK_MARGIN} for a database
 * clock ahead of ours), is never answered from here. A server does not give a transaction id twice while it runs, so
 * what a batch that rolled back remembered never matches; a server that restarted after a crash, or a standby
 * promoted in a failover, may give again the id of a transaction it lost, but it has another start time, which every
 * revision carries. What was read from the database more than {@link #MAX_AGE} ago is read again, however often
 * batches added to it since: a writer that broke the rule above (a replica of an older build, in a rolling upgrade,
 * removed a position without writing the cart's row) is seen within that time.
 *
 * <p>Per replica, at most {@link #MAX_POSITIONS} positions. Past {@link #SWEEP_ABOVE}, a batch sweeps out, before it
 * locks its carts and at most once a {@link #SWEEP_EVERY}, what can no longer answer (read too long ago, or holding a
 * position about to expire) and the carts no batch added to for {@link #IDLE}: what it saves is a read a batch, so
 * it is worth keeping for the carts a sale is busy with, and a cart that comes back costs one read. A cart that does
 * not fit is not remembered (or forgotten, if it grew). A cart checked out or deleted here is forgotten at once.
 */
@ApplicationScoped
class KnownCarts {

    static final int MAX_POSITIONS = 200_000;
    static final int SWEEP_ABOVE = MAX_POSITIONS / 10 * 9;
    static final Duration CLOCK_MARGIN = Duration.ofMinutes(1);
    static final Duration MAX_AGE = Duration.ofSeconds(30);
    static final Duration SWEEP_EVERY = Duration.ofSeconds(1);
    static final Duration IDLE = Duration.ofSeconds(5);

    /**
     * A revision of a cart's row: its {@code xmin} on the server that started at {@code server} (microseconds since
     * 1970), and when the positions known at it were last read from the database.
     */
    record Revision(long revision, long server, Instant readAt) {
    }

    /**
     * A cart's positions at a revision of its row; {@code firstExpiry}, the earliest deadline among them (null for
     * none), kept so that a look-up does not go through a cart of tens of positions; {@code addedAt}, when a batch
     * last added to it.
     */
    record Known(Revision revision, List<CartPosition> positions, Instant firstExpiry, Instant addedAt) {

        boolean readRecently(Instant now) {
            return revision.readAt().isAfter(now.minus(MAX_AGE));
        }

        /** Whether it may answer at {@code now}: read recently, and none of its positions expired or about to. */
        boolean usableAt(Instant now) {
            return readRecently(now) && (firstExpiry == null || firstExpiry.isAfter(now.plus(CLOCK_MARGIN)));
        }
    }

    private final Map<String, Known> carts = new ConcurrentHashMap<>();
    private final AtomicLong positions = new AtomicLong();
    private final AtomicLong nextSweepMillis = new AtomicLong();

    /**
     * What is known of each of {@code cartIds} that may be answered from here at {@code now}. What was read too long
     * ago is forgotten: it can never answer again.
     */
    Map<String, Known> usableAt(String[] cartIds, Instant now) {
        if (positions.get() > SWEEP_ABOVE) {
            sweep(now);
        }
        Map<String, Known> usable = new HashMap<>();
        for (String id : cartIds) {
            Known known = carts.get(id);
            if (known == null) {
                continue;
            }
            if (known.usableAt(now)) {
                usable.put(id, known);
            } else if (!known.readRecently(now)) {
                forget(id, known);
            }
        }
        return usable;
    }

    /**
     * Remembers {@code cartPositions} as {@code cartId}'s at {@code revision}, as a batch at {@code now} left them,
     * unless that would pass the bound: then what was known of the cart is forgotten.
     */
    void remember(String cartId, Revision revision, List<CartPosition> cartPositions, Instant now) {
        Known before = carts.get(cartId);
        if (positions.get() + cartPositions.size() - (before == null ? 0 : before.positions().size()) > MAX_POSITIONS) {
            if (before != null) {
                forget(cartId, before);
            }
            return;
        }
        Instant firstExpiry = null;
        for (CartPosition position : cartPositions) {
            if (firstExpiry == null || position.expires().isBefore(firstExpiry)) {
                firstExpiry = position.expires();
            }
        }
        Known replaced = carts.put(cartId, new Known(revision, List.copyOf(cartPositions), firstExpiry, now));
        positions.addAndGet(cartPositions.size() - (replaced == null ? 0 : replaced.positions().size()));
    }

    /** Forgets carts that are gone (checked out, deleted): nothing would look them up again before they age out. */
    void forget(String... cartIds) {
        for (String id : cartIds) {
            Known known = carts.get(id);
            if (known != null) {
                forget(id, known);
            }
        }
    }

    private void forget(String cartId, Known known) {
        if (carts.remove(cartId, known)) {
            positions.addAndGet(-known.positions().size());
        }
    }

    private void sweep(Instant now) {
        long due = nextSweepMillis.get();
        long millis = now.toEpochMilli();
        // A clock set back (a test's) must not hold the sweeps off for as long.
        boolean dueNow = millis >= due || due - millis > SWEEP_EVERY.toMillis();
        if (dueNow && nextSweepMillis.compareAndSet(due, millis + SWEEP_EVERY.toMillis())) {
            Instant idleSince = now.minus(IDLE);
            carts.forEach((id, known) -> {
                if (!known.usableAt(now) || known.addedAt().isBefore(idleSince)) {
                    forget(id, known);
                }
            });
        }
    }
}

package io.ticketing.reservations.cart;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.cart.CartRows.Contents;
import io.ticketing.reservations.cart.CartRows.Placed;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.reservation.Claim;
import io.ticketing.reservations.reservation.ClaimBatches;

/**
 * The statements of a batch of adds to cart ({@link ClaimBatches}): its carts locked with their new deadline, before
 * the advisory locks as an add alone does ({@link CartRows#LOCK_EXTENDING}); the positions inserted under them; and
 * the deadline given back to each cart whose adds were all refused, since an add refused changes nothing.
 *
 * <p>Why the deadline moves before the locks and is given back after, rather than moved after the decision: a
 * statement under the advisory locks lengthens every lock hold of a hot quota, and every add of a batch then waits
 * for it; a refusal is the rare case, and its statement the only one.
 */
@ApplicationScoped
class CartBatchRows {

    /**
     * {@link CartRows#LOCK_EXTENDING} for a batch's carts, in one order, with their positions. A cart another
     * transaction holds (its buyer's extend, say) is skipped: its request leaves the batch and waits for it alone,
     * within its own bound. Each cart comes with its deadline before, its revision before and after
     * ({@link KnownCarts}), and one row per position unless {@code :known} and {@code :revisions} pair it with the
     * revision it still has (one row without a position then, as for an empty cart). Such a cart joins positions by a
     * key of NULL, so not one of them is even looked at: a condition in the join's {@code ON} was checked only after
     * the scan of the cart's positions.
     *
     * <p>The update finds each locked row by its {@code ctid}, not by a second descent into the primary key
     * (docs/benchmark-history.md, "Issue 41: what a checkout writes"). So a cart another transaction wrote and
     * committed while this statement ran is skipped too: the lock follows it to its new version, which this
     * statement's snapshot cannot see at that {@code ctid}. That is also why the positions may be read by this same
     * statement: every change to a cart's positions writes its row ({@link KnownCarts}), so the version locked is the
     * one whose positions the snapshot sees.
     */
    private static final String LOCK_EXTENDING_EACH = """
            WITH server AS (SELECT (extract(epoch FROM pg_postmaster_start_time()) * 1000000)::bigint AS started),
            locked AS (SELECT ctid, expires, xmin FROM carts WHERE id = ANY(:ids) AND event_id = :event
                       ORDER BY id FOR UPDATE SKIP LOCKED),
            extended AS (UPDATE carts k SET expires = greatest(k.expires, :expires) FROM locked, server
                         WHERE k.ctid = locked.ctid
                         RETURNING k.id, k.event_id, k.created_at, k.expires, k.buyer, k.channel,
                           locked.expires AS before, locked.xmin::text::bigint AS was, k.xmin::text::bigint AS now,
                           CASE WHEN (k.id, locked.xmin::text::bigint, server.started)
                                     IN (SELECT * FROM unnest(CAST(:known AS text[]), CAST(:revisions AS bigint[]),
                                                              CAST(:servers AS bigint[])))
                                THEN NULL ELSE k.id END AS unknown, server.started)
            SELECT k.id, k.event_id, k.created_at, k.expires, k.buyer, k.channel, k.before, k.was, k.now, k.started,
              """ + CartRows.POSITION_COLUMNS_OF_P + """

            FROM extended k LEFT JOIN cart_positions p ON p.cart_id = k.unknown
            ORDER BY k.id, p.id""";
    /** Carts whose adds were all refused get back the deadline {@link #LOCK_EXTENDING_EACH} moved. */
    private static final String GIVE_BACK_DEADLINES = """
            UPDATE carts k SET expires = w.expires
            FROM unnest(CAST(:ids AS text[]), CAST(:deadlines AS timestamptz[])) AS w (id, expires) WHERE k.id = w.id""";
    /** {@link CartRows#INSERT_ALL} for the carts of a batch: one statement, so the hold counters move once. */
    private static final String INSERT_EACH = CartRows.inserting(true, false, false);
    private static final String INSERT_EACH_DATED = CartRows.inserting(true, false, true);
    private static final String INSERT_EACH_BUNDLED = CartRows.inserting(true, true, true);

    private final Jdbc jdbc;
    private final KnownCarts knownCarts;

    CartBatchRows(Jdbc jdbc, KnownCarts knownCarts) {
        this.jdbc = jdbc;
        this.knownCarts = knownCarts;
    }

    /**
     * The carts found and not held by another transaction, with their positions, their deadlines before and the
     * revisions their positions are now known at.
     */
    record Locked(Map<String, Contents> carts, Map<String, Instant> deadlinesBefore,
            Map<String, KnownCarts.Revision> revisions) {
    }

    /** One row of {@link #LOCK_EXTENDING_EACH}: a cart, and one of its positions or none. */
    private record CartRow(Cart cart, Instant before, long was, long now, long server, CartPosition position) {
    }

    /**
     * The batch's carts locked with their deadline moved to {@code expires} if later, their positions (read, or known
     * at {@code now} from {@link KnownCarts}), and what {@code alongside} queues (the reads that decide the advisory
     * locks), in one round trip.
     */
    Locked lockExtendingEach(long eventId, Collection<String> cartIds, Instant expires, Instant now,
            Consumer<Jdbc.RoundTrip> alongside) {
        String[] ids = CartRows.sorted(cartIds);
        Map<String, KnownCarts.Known> known = knownCarts.usableAt(ids, now);
        String[] knownIds = known.keySet().toArray(String[]::new);
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        Jdbc.Rows<CartRow> rows = reads.add(jdbc.statement(LOCK_EXTENDING_EACH).set("ids", ids)
                .set("event", eventId).set("expires", expires).set("known", knownIds)
                .set("revisions", Arrays.stream(knownIds).map(id -> known.get(id).revision().revision())
                        .toArray(Long[]::new))
                .set("servers", Arrays.stream(knownIds).map(id -> known.get(id).revision().server())
                        .toArray(Long[]::new))
                .reading(row -> new CartRow(CartRows.cart(row), Jdbc.instant(row, 7), row.getLong(8), row.getLong(9),
                        row.getLong(10), row.getObject(11) == null ? null : CartRows.position(row, 10))));
        alongside.accept(reads);
        reads.send();
        Map<String, Contents> carts = new LinkedHashMap<>();
        Map<String, Instant> deadlinesBefore = new HashMap<>();
        Map<String, KnownCarts.Revision> revisions = new HashMap<>();
        for (CartRow row : rows.all()) {
            String id = row.cart().id();
            if (!carts.containsKey(id)) {
                KnownCarts.Known before = known.get(id);
                boolean unchanged = before != null && before.revision().revision() == row.was()
                        && before.revision().server() == row.server();
                carts.put(id,
                        new Contents(row.cart(), unchanged ? new ArrayList<>(before.positions()) : new ArrayList<>()));
                deadlinesBefore.put(id, row.before());
                revisions.put(id,
                        new KnownCarts.Revision(row.now(), row.server(), unchanged ? before.revision().readAt() : now));
            }
            if (row.position() != null) {
                carts.get(id).positions().add(row.position());
            }
        }
        return new Locked(carts, deadlinesBefore, revisions);
    }

    /**
     * The positions of {@code cartId} at {@code revision}, as a batch of adds of this transaction, at {@code now}, left
     * them.
     */
    void remember(String cartId, KnownCarts.Revision revision, List<CartPosition> positions, Instant now) {
        knownCarts.remember(cartId, revision, positions, now);
    }

    /**
     * Inserts one position per claim, into the cart at the same index of {@code cartIds} ({@code bundledIn} an index
     * into the whole list), and gives {@code refused} carts back their deadlines, in one round trip. Returns the
     * positions in the order of their claims.
     */
    List<Placed> insertEachGivingBack(List<String> cartIds, List<Claim> claims, Instant expires,
            Map<String, Instant> refused) {
        Jdbc.RoundTrip writes = jdbc.roundTrip();
        Jdbc.Rows<Placed> inserted = null;
        if (!claims.isEmpty()) {
            boolean bundled = claims.stream().anyMatch(claim -> claim.bundledIn() != null);
            String insert = bundled ? INSERT_EACH_BUNDLED : CartRows.dated(claims) ? INSERT_EACH_DATED : INSERT_EACH;
            inserted = writes.add(CartRows.claimed(jdbc.statement(insert), claims, bundled)
                    .set("carts", cartIds.toArray(String[]::new)).set("expires", expires)
                    .reading(CartRows::placed));
        }
        if (!refused.isEmpty()) {
            String[] ids = CartRows.sorted(refused.keySet());
            writes.add(jdbc.statement(GIVE_BACK_DEADLINES).set("ids", ids)
                    .set("deadlines", Arrays.stream(ids).map(id -> refused.get(id).toString())
                            .toArray(String[]::new)));
        }
        if (inserted == null && refused.isEmpty()) {
            return List.of();
        }
        writes.send();
        return inserted == null ? List.of() : inserted.all();
    }
}

package io.ticketing.reservations.inventory;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;

/**
 * Counts quotas' usage (contract section 1) from the counters that migration V5's triggers keep, so the cost does
 * not grow with sales: per member item two sales rows and the live hold buckets (a blocking voucher of no date in a
 * quota of a date adds its own uses there, at most its {@code max_usages}, read by an index). It takes no lock: flows that
 * consume capacity call it only after the lock engine holds the quotas' locks, and at READ COMMITTED the one
 * statement sees everything the previous holder committed.
 */
@ApplicationScoped
public class QuotaCounter {

    /**
     * What voucher {@code v} has used of its block in quota {@code q} (contract sections 1 and 10). A voucher of no
     * date that gives its uses back blocks on each date what it has not used on that date ("each counted on its
     * own"): its {@code redeemed} counts every date's uses, and a use given back on one date would raise its block on
     * another that sold out meanwhile, past the size, by a cancel or an expiry nothing may refuse. Elsewhere, and for
     * an offer (whose uses never come back), {@code redeemed} only falls with this quota's own usage or never. The
     * flows judge which of the two counts applies by {@link QuotaMembers#countsUsesOnItsDate}: keep them alike.
     */
    private static final String VOUCHER_USES_IN_QUOTA = """
            CASE WHEN q.date_id IS NOT NULL AND v.date_id IS NULL AND v.gives_back
              THEN voucher_uses_on_date(v.id, q.date_id) ELSE v.redeemed END""";

    /**
     * One row per quota selected by the {@code quota} CTE that precedes it: its size, member items, the four numbers,
     * the vouchers that block in it now, what the waiting list keeps back in it ({@link WaitingKept}, read only where
     * the event has entries open) and its allotments in force ({@link AllotmentCount}; read only for a quota that has
     * some, V24's counter), and whether its event has dates, all from one snapshot. Holds: see V5 for why the two bucket
     * ranges count exactly the live ones. The counters count every live hold (V16) per item and date (V19): a quota of
     * one date counts its date's and those of no date (passes); a quota of no date counts every date's, which only an
     * event with dates ({@code dated}) has, so that an event without dates reads the short ranges it always did. What
     * dates add, and a voucher's uses on a date, V30's functions count, called only where a date counts: PostgreSQL
     * sets up every sub-select of a plan on each run, run or not, and as sub-selects they cost every count a third
     * more, dates or not (see V30). {@code member} is materialized so that each member's dates are counted once, not
     * once for each of their three fields. A hold is then left out of a quota's {@code carts} when its voucher blocks
     * in that quota now (the voucher counts that capacity), or when it is being re-checked ({@code :excluded}) and must
     * not count against itself. A voucher blocks in a quota while {@code block_quota} is on, {@code valid_until} has
     * not passed, it names the quota or an item in it, and it is not restricted to another date than the quota's
     * (contract sections 1 and 10).
     */
    private static final String COUNT_SELECTED = """
            member AS MATERIALIZED (
              SELECT q.id AS quota_id, q.date_id, qi.item_id,
                CASE WHEN q.date_id IS NOT NULL OR q.dated THEN item_usage_on_dates(qi.item_id, q.date_id) END
                  AS on_dates
              FROM quota q JOIN quota_items qi ON qi.quota_id = q.id),
            blocking AS (
              SELECT q.id AS quota_id, v.id AS voucher_id, greatest(v.max_usages - %s, 0) AS uses_left
              FROM quota q JOIN vouchers v ON v.block_quota AND (v.valid_until IS NULL OR v.valid_until >= now())
                AND (v.date_id IS NULL OR q.date_id IS NULL OR v.date_id = q.date_id)
                AND (v.quota_id = q.id OR v.item_id IN (SELECT item_id FROM member WHERE quota_id = q.id))),
            usage AS (
              SELECT m.quota_id, m.item_id,
                (SELECT coalesce(sum(positions), 0) FROM item_sales
                   WHERE item_id = m.item_id AND date_id = 0 AND status = 'paid')
                + coalesce((m.on_dates).paid, 0) AS paid,
                (SELECT coalesce(sum(positions), 0) FROM item_sales
                   WHERE item_id = m.item_id AND date_id = 0 AND status = 'pending')
                + coalesce((m.on_dates).pending, 0) AS pending,
                (SELECT coalesce(sum(positions), 0) FROM item_holds WHERE item_id = m.item_id AND date_id = 0
                   AND width = 1 AND bucket >= now() AND bucket <= hold_bucket(now(), 60))
                + (SELECT coalesce(sum(positions), 0) FROM item_holds WHERE item_id = m.item_id AND date_id = 0
                   AND width = 60 AND bucket > hold_bucket(now(), 60))
                + coalesce((m.on_dates).carts, 0) AS carts
              FROM member m)
            SELECT q.id, q.name, q.size, array_remove(array_agg(u.item_id ORDER BY u.item_id), NULL),
              coalesce(sum(u.paid), 0), coalesce(sum(u.pending), 0),
              coalesce(sum(u.carts), 0)
                - (SELECT count(*) FROM cart_positions c WHERE c.id = ANY(:excluded) AND hold_bucket(c.expires, 1) >= now()
                    AND c.item_id IN (SELECT item_id FROM member WHERE quota_id = q.id)
                    AND (q.date_id IS NULL OR c.date_id IS NULL OR c.date_id = q.date_id))
                - (SELECT count(*) FROM blocking b JOIN cart_positions c ON c.voucher_id = b.voucher_id
                    WHERE b.quota_id = q.id AND hold_bucket(c.expires, 1) >= now() AND c.id <> ALL(:excluded)
                      AND c.item_id IN (SELECT item_id FROM member WHERE quota_id = q.id)
                      AND (q.date_id IS NULL OR c.date_id IS NULL OR c.date_id = q.date_id)),
              (SELECT coalesce(sum(b.uses_left), 0) FROM blocking b WHERE b.quota_id = q.id),
              (SELECT array_agg(b.voucher_id) FROM blocking b WHERE b.quota_id = q.id),
              CASE WHEN q.waits AND NOT q.dated THEN waiting_kept(array_remove(array_agg(u.item_id), NULL)) END,
              q.date_id,
              %s, q.dated
            FROM quota q LEFT JOIN usage u ON u.quota_id = q.id
            GROUP BY q.id, q.name, q.size, q.date_id, q.event_id, q.allotments, q.waits, q.dated ORDER BY q.id"""
            .formatted(VOUCHER_USES_IN_QUOTA, AllotmentCount.COLUMN);

    /**
     * A selected quota's columns: with {@code dated}, whether its event has dates at all, and with {@code waits},
     * whether it has waiting-list entries open or redeemed (an offer partly used keeps what its bundle brings for the
     * rest), so that only then, and only in an event without dates, the count reads what they keep back (V31's
     * {@code waiting_kept}).
     */
    private static final String QUOTA_COLUMNS = """
            q.id, q.name, q.size, q.date_id, q.event_id, q.allotments,
              EXISTS (SELECT 1 FROM event_dates d WHERE d.event_id = q.event_id) AS dated,
              EXISTS (SELECT 1 FROM waiting_list_entries w WHERE w.event_id = q.event_id
                        AND w.status IN ('waiting', 'offered', 'redeemed')) AS waits""";

    /**
     * The items a claim of {@code :items} consumes: those, and the items they bundle (contract section 10), each
     * once. A union rather than an {@code OR}: the connections use generic plans (see application.properties).
     */
    static final String CLAIMED_ITEMS = """
            SELECT unnest(CAST(:items AS bigint[])) UNION SELECT bundled_item_id FROM item_bundles WHERE item_id = ANY(:items)""";

    /**
     * The quotas {@code :items} (and what they bundle) are in: one definition for what is locked (memberships) and
     * what is counted, so that the check after the locks compares like with like.
     */
    private static final String QUOTAS_OF_ITEMS = "SELECT quota_id FROM quota_items WHERE item_id IN ("
            + CLAIMED_ITEMS + ")";

    /**
     * The quotas the items are in, counted. Items and quotas have a statement each: the connections use generic
     * plans (see application.properties), and one with {@code id = ANY(:quotas) OR id IN (...)} scans every quota.
     */
    private static final String COUNT_OF_ITEMS = """
            WITH quota AS (SELECT %s FROM quotas q WHERE q.id IN (%s)),
            """.formatted(QUOTA_COLUMNS, QUOTAS_OF_ITEMS) + COUNT_SELECTED;

    /**
     * {@link #COUNT_OF_ITEMS} of the quotas of no date and of {@code :dates}: what claims on those dates can grow.
     * Without it a claim on one date of 500 counted 500 quotas. Public for the benchmark, which runs it through
     * pgbench.
     */
    public static final String COUNT_OF_ITEMS_ON_DATES = """
            WITH quota AS (SELECT %s FROM quotas q WHERE q.id IN (%s)
              AND (q.date_id IS NULL OR q.date_id = ANY(:dates))),
            """.formatted(QUOTA_COLUMNS, QUOTAS_OF_ITEMS) + COUNT_SELECTED;

    private static final String COUNT_OF_QUOTAS = """
            WITH quota AS (SELECT %s FROM quotas q WHERE q.id = ANY(:quotas)),
            """.formatted(QUOTA_COLUMNS) + COUNT_SELECTED;

    /** Every quota of the event, counted: what a storefront's availability reads. */
    private static final String COUNT_OF_EVENT = """
            WITH quota AS (SELECT %s FROM quotas q WHERE q.event_id = :event),
            """.formatted(QUOTA_COLUMNS) + COUNT_SELECTED;

    /**
     * The quotas the items are in, with their sizes, dates and all their members, not counted: enough to decide what
     * to lock, read before the locks are held.
     */
    private static final String MEMBERSHIPS = """
            SELECT q.id, q.size, array_agg(m.item_id ORDER BY m.item_id), q.date_id
            FROM quotas q JOIN quota_items m ON m.quota_id = q.id
            WHERE q.id IN (%s)
            GROUP BY q.id, q.size, q.date_id ORDER BY q.id""".formatted(QUOTAS_OF_ITEMS);

    /**
     * {@link #MEMBERSHIPS} of the quotas of no date, of {@code :dates}, and of every date when a pass is among the
     * items (a pass, and what it bundles, takes every date): what claims on those dates can grow, which
     * {@link #COUNT_OF_ITEMS_ON_DATES} counts under the locks. Public for the benchmark.
     */
    public static final String MEMBERSHIPS_ON_DATES = """
            SELECT q.id, q.size, array_agg(m.item_id ORDER BY m.item_id), q.date_id
            FROM quotas q JOIN quota_items m ON m.quota_id = q.id
            WHERE q.id IN (%s) AND (q.date_id IS NULL OR q.date_id = ANY(:dates)
              OR EXISTS (SELECT 1 FROM items p WHERE p.id IN (%s) AND p.every_date))
            GROUP BY q.id, q.size, q.date_id ORDER BY q.id""".formatted(QUOTAS_OF_ITEMS, CLAIMED_ITEMS);

    /**
     * A quota as counted, with the vouchers that blocked in it by the database's clock when it was counted, what the
     * waiting list's offers keep back in it (by voucher: {@link WaitingKept}), and whether its event had dates then.
     */
    public record CountedQuota(long id, String name, Integer size, Set<Long> itemIds,
            QuotaAvailability availability, Set<Long> blockingVoucherIds, Long dateId, Map<Long, Long> offersKept,
            boolean dated) implements QuotaMembers {

        @Override
        public boolean blockedBy(Voucher voucher, Instant now) {
            return blockingVoucherIds.contains(voucher.id);
        }

        public CountedQuota holdingMore(Map<String, Long> positionsByChannel) {
            return new CountedQuota(id, name, size, itemIds, availability.holdingMore(positionsByChannel),
                    blockingVoucherIds, dateId, offersKept, dated);
        }

        /**
         * What a buyer of {@code channel} using {@code vouchers} can take ({@link QuotaAvailability#leftFor}): what the
         * offers among those vouchers keep back here is the buyer's own (contract section 9).
         */
        public Integer leftFor(String channel, Collection<Long> vouchers) {
            long own = 0;
            for (Long voucher : vouchers) {
                own += offersKept.getOrDefault(voucher, 0L);
            }
            return availability.leftFor(channel, own, keptByOffers());
        }

        /** What all running offers keep back here beside their vouchers' blocks. */
        public long keptByOffers() {
            return offersKept.values().stream().mapToLong(Long::longValue).sum();
        }

        /**
         * What the quota has given or promised ({@link QuotaAvailability#committed}) and what running offers keep
         * for what their bundles bring: a change that makes capacity scarcer keeps this within the size, as offers
         * draw from what is left for everyone (contract section 12).
         */
        public long committed() {
            return availability.committed() + keptByOffers();
        }
    }

    private final Jdbc jdbc;

    QuotaCounter(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public QuotaAvailability count(Quota quota) {
        return ofQuotas(List.of(quota.id)).get(0).availability();
    }

    public List<CountedQuota> ofQuotas(Collection<Long> quotaIds) {
        return counting(jdbc.statement(COUNT_OF_QUOTAS).set("quotas", quotaIds.toArray(Long[]::new)), List.of())
                .list();
    }

    /** Every quota of the event, counted, in one statement. */
    public List<CountedQuota> ofEvent(long eventId) {
        return counting(jdbc.statement(COUNT_OF_EVENT).set("event", eventId), List.of()).list();
    }

    /**
     * Every quota the items are in, counted, leaving out {@code excludedCartPositions}: the positions a flow is
     * re-checking, which must not count against themselves.
     */
    public List<CountedQuota> ofItems(Collection<Long> itemIds, Collection<Long> excludedCartPositions) {
        return counting(jdbc.statement(COUNT_OF_ITEMS).set("items", itemIds.toArray(Long[]::new)),
                excludedCartPositions).list();
    }

    /**
     * {@link #ofItems} of the quotas of no date and of {@code dateIds} only, for the lock engine to send with the
     * locks: the claims' own quotas ({@code ReservationChecks.datesCounted}).
     */
    public Jdbc.Query<CountedQuota> ofItemsQuery(Collection<Long> itemIds, Collection<Long> dateIds,
            Collection<Long> excludedCartPositions) {
        return counting(jdbc.statement(COUNT_OF_ITEMS_ON_DATES).set("items", itemIds.toArray(Long[]::new))
                .set("dates", dateIds.toArray(Long[]::new)), excludedCartPositions);
    }

    /** Every quota the items (and those they bundle) are in, with its members, without counting: what to lock. */
    public Jdbc.Query<Membership> membershipsOf(Collection<Long> itemIds) {
        return memberships(jdbc.statement(MEMBERSHIPS).set("items", itemIds.toArray(Long[]::new)));
    }

    /**
     * The quotas claims of the items on {@code dateIds} (and passes, on every date) can grow, with their members,
     * without counting: what to lock.
     */
    public Jdbc.Query<Membership> membershipsOnDatesOf(Collection<Long> itemIds, Collection<Long> dateIds) {
        return memberships(jdbc.statement(MEMBERSHIPS_ON_DATES).set("items", itemIds.toArray(Long[]::new))
                .set("dates", dateIds.toArray(Long[]::new)));
    }

    private static Jdbc.Query<Membership> memberships(Jdbc.Statement statement) {
        return statement.reading(row -> new Membership(row.getLong(1), Jdbc.integer(row, 2), idSet(row, 3),
                Jdbc.nullableLong(row, 4)));
    }

    private static Jdbc.Query<CountedQuota> counting(Jdbc.Statement countStatement,
            Collection<Long> excludedCartPositions) {
        return countStatement.set("excluded", excludedCartPositions.toArray(Long[]::new)).reading(row -> {
            Integer size = Jdbc.integer(row, 3);
            WaitingKept waiting = WaitingKept.parse(row.getString(10));
            return new CountedQuota(row.getLong(1), row.getString(2), size, idSet(row, 4),
                    QuotaAvailability.of(size, row.getLong(5), row.getLong(6), row.getLong(7), row.getLong(8),
                            waiting.total(), AllotmentCount.parse(row.getString(12))),
                    idSet(row, 9), Jdbc.nullableLong(row, 11), waiting.byOffer(), row.getBoolean(13));
        });
    }

    private static Set<Long> idSet(ResultSet row, int column) throws SQLException {
        return new TreeSet<>(Jdbc.longs(row, column));
    }
}

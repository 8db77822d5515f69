package io.ticketing.reservations.reservation;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.Membership;
import io.ticketing.reservations.inventory.QuotaCounter;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.SeatHolds;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.problem.InventoryChanged;

/**
 * What a reservation reads besides the quotas' count ({@link QuotaCounter}): before the locks, what decides them
 * ({@link Before}); after them, in the round trip that counts, the seats already taken, the uses left of vouchers and
 * what a buyer holds. The statements sit here, next to the reads that rely on them; none takes a lock.
 */
@ApplicationScoped
class ReservationReads {

    /** The claimed seats that cannot be sold to this buyer. */
    private static final String TAKEN_SEATS = "SELECT s.id FROM seats s WHERE s.id = ANY(:seats) AND "
            + SeatHolds.UNAVAILABLE + " LIMIT 1";

    /**
     * {@link #TAKEN_SEATS} for a batch of buyers, each the index of its request: {@code :claimants} and {@code :seats}
     * pair each request with a seat it claims, {@code :voucher_claimants} and {@code :vouchers} with a voucher it uses.
     * One statement for the whole batch, for the reason {@link #MOVED_SEATS} gives. The seats are found by
     * {@code s.id = ANY(:seats)}, not only by the join: the plan PostgreSQL keeps for it (a generic one) then reads them
     * by their index, where the join alone, ten rows to it, made it read every seat of the table and probe each
     * sale and hold of them at every batch (a third of the throughput of seat picking, measured).
     */
    private static final String TAKEN_SEATS_OF_BATCH = """
            SELECT w.claimant, s.id
            FROM seats s JOIN unnest(CAST(:claimants AS int[]), CAST(:seats AS bigint[])) AS w (claimant, seat)
              ON w.seat = s.id
            WHERE s.id = ANY(:seats) AND """ + SeatHolds.unavailableUnless("""
            NOT EXISTS (SELECT 1 FROM unnest(CAST(:voucher_claimants AS int[]), CAST(:vouchers AS bigint[]))
                          AS u (claimant, voucher) WHERE u.claimant = w.claimant AND u.voucher = v.id)""");

    /**
     * The claimed seats a seating plan moved to another item since a flow read them before its locks (contract
     * section 13), each as it was read: {@code :seats} and {@code :items} pair each seat with its item as read. A seat
     * the plan deleted meanwhile is not here: the position written on it breaks a foreign key, and the flow runs
     * again ({@link InventoryChanged#isCause}). A statement of its own, and one for a whole batch: the driver keeps
     * the plan of a round trip by its text, and a statement per request would make a text for
     * every batch's make-up, planned anew (0.5 ms a plan for that one) until it has run five times.
     */
    private static final String MOVED_SEATS = """
            SELECT w.id, w.item_id FROM unnest(CAST(:seats AS bigint[]), CAST(:items AS bigint[])) AS w (id, item_id)
              JOIN seats s ON s.id = w.id
            WHERE s.item_id <> w.item_id""";

    /** Uses left per voucher. One statement: a checkout moving uses from carts to redeemed is seen whole. */
    private static final String VOUCHER_USES_LEFT = """
            SELECT v.id, v.max_usages - v.redeemed - (SELECT count(*) FROM cart_positions c
                     WHERE c.voucher_id = v.id AND c.expires >= now() AND c.id <> ALL(:own))
            FROM vouchers v WHERE v.id = ANY(:vouchers)""";

    /**
     * What one buyer holds and has bought in the event, per item, other than {@code :own} and what bundles brought
     * (contract section 10). One statement: a checkout moving positions from a cart to an order is seen before or
     * after, never both or neither.
     */
    private static final String BUYER_HOLDINGS = """
            SELECT item_id, count(*) FROM (
              SELECT p.item_id FROM carts c JOIN cart_positions p ON p.cart_id = c.id
              WHERE c.event_id = :event AND c.buyer = :buyer AND p.expires >= now() AND p.id <> ALL(:own)
                AND p.bundled_in IS NULL
              UNION ALL
              SELECT p.item_id FROM orders o JOIN order_positions p ON p.order_id = o.id
              WHERE o.event_id = :event AND o.buyer = :buyer AND o.status IN ('pending', 'paid')
                AND p.bundled_in IS NULL
            ) held GROUP BY item_id""";

    /** Of the dates the claims name, those of the event, and whether each is on sale. */
    private static final String NAMED_DATES = """
            SELECT id, active FROM event_dates WHERE id = ANY(:dates) AND event_id = :event""";

    private final QuotaCounter counter;
    private final Jdbc jdbc;

    ReservationReads(QuotaCounter counter, Jdbc jdbc) {
        this.counter = counter;
        this.jdbc = jdbc;
    }

    /** Queues in {@code reads} what deciding the locks needs, for claims of {@code itemIds} naming {@code dates}. */
    Before before(long eventId, Set<Long> itemIds, Set<Long> namedDates, Jdbc.RoundTrip reads) {
        return new Before(eventId, itemIds, namedDates, reads);
    }

    Jdbc.Query<Long> takenSeats(Set<Long> seatIds, Collection<Long> ownPositions, Set<Long> voucherIds) {
        return jdbc.statement(TAKEN_SEATS).set("seats", seatIds.toArray(Long[]::new))
                .set("own", ownPositions.toArray(Long[]::new)).set("vouchers", voucherIds.toArray(Long[]::new))
                .reading(row -> row.getLong(1));
    }

    /**
     * Of the seats each request of a batch claims ({@code seatsOf}, by request), those it cannot have, given the
     * vouchers it uses ({@code vouchersOf}): a request's index and one of its seats per row. No positions are its own.
     */
    Jdbc.Query<TakenSeat> takenSeatsOfBatch(Map<Integer, Set<Long>> seatsOf, Map<Integer, Set<Long>> vouchersOf) {
        List<Integer> claimants = new ArrayList<>();
        List<Long> seats = new ArrayList<>();
        seatsOf.forEach((claimant, ids) -> ids.forEach(seat -> {
            claimants.add(claimant);
            seats.add(seat);
        }));
        List<Integer> voucherClaimants = new ArrayList<>();
        List<Long> vouchers = new ArrayList<>();
        vouchersOf.forEach((claimant, ids) -> ids.forEach(voucher -> {
            voucherClaimants.add(claimant);
            vouchers.add(voucher);
        }));
        return jdbc.statement(TAKEN_SEATS_OF_BATCH).set("claimants", claimants.toArray(Integer[]::new))
                .set("seats", seats.toArray(Long[]::new)).set("own", new Long[0])
                .set("voucher_claimants", voucherClaimants.toArray(Integer[]::new))
                .set("vouchers", vouchers.toArray(Long[]::new))
                .reading(row -> new TakenSeat(row.getInt(1), row.getLong(2)));
    }

    /** A seat request {@code claimant} of a batch claims and cannot have. */
    record TakenSeat(int claimant, long seatId) {
    }

    /** Of {@code seats} as flows read them, those a seating plan has moved to another item since then. */
    Jdbc.Query<MovedSeat> movedSeats(Collection<Seat> seats) {
        return jdbc.statement(MOVED_SEATS).set("seats", seats.stream().map(seat -> seat.id).toArray(Long[]::new))
                .set("items", seats.stream().map(seat -> seat.itemId).toArray(Long[]::new))
                .reading(row -> new MovedSeat(row.getLong(1), row.getLong(2)));
    }

    /** A seat as a flow read it (its id and its item then), which now sells as another item. */
    record MovedSeat(long seatId, long itemRead) {

        boolean isOneOf(Collection<Seat> seats) {
            return seats.stream().anyMatch(seat -> seat.id == seatId && seat.itemId == itemRead);
        }
    }

    /**
     * Throws {@link InventoryChanged} when {@code moved} names one of {@code seats}: the flow's reads are stale, so
     * its transaction runs again, as for a quota changed under it.
     */
    static void requireUnmoved(List<MovedSeat> moved, Collection<Seat> seats) {
        if (moved.stream().anyMatch(seat -> seat.isOneOf(seats))) {
            throw new InventoryChanged();
        }
    }

    Jdbc.Query<long[]> voucherUsesLeft(Set<Long> voucherIds, Collection<Long> ownPositions) {
        return jdbc.statement(VOUCHER_USES_LEFT).set("vouchers", voucherIds.toArray(Long[]::new))
                .set("own", ownPositions.toArray(Long[]::new))
                .reading(row -> new long[]{row.getLong(1), row.getLong(2)});
    }

    Jdbc.Query<long[]> buyerHoldings(long eventId, String buyer, Collection<Long> ownPositions) {
        return jdbc.statement(BUYER_HOLDINGS).set("event", eventId).set("buyer", buyer)
                .set("own", ownPositions.toArray(Long[]::new))
                .reading(row -> new long[]{row.getLong(1), row.getLong(2)});
    }

    /** What deciding the locks reads: the claims' items (and what they bundle), their quotas, the dates they name. */
    final class Before {

        private final Jdbc.Rows<ItemForSale> items;
        private final Jdbc.Rows<Membership> memberships;
        private final Jdbc.Rows<Map.Entry<Long, Boolean>> dates;

        private Before(long eventId, Set<Long> itemIds, Set<Long> namedDates, Jdbc.RoundTrip reads) {
            items = reads.add(ItemForSale.of(jdbc, eventId, itemIds));
            memberships = reads.add(counter.membershipsOnDatesOf(itemIds, namedDates));
            dates = namedDates.isEmpty()
                    ? null
                    : reads.add(jdbc.statement(NAMED_DATES).set("dates", namedDates.toArray(Long[]::new))
                            .set("event", eventId).reading(row -> Map.entry(row.getLong(1), row.getBoolean(2))));
        }

        Map<Long, ItemForSale> items() {
            return items.all().stream().collect(Collectors.toMap(ItemForSale::id, Function.identity()));
        }

        List<Membership> memberships() {
            return memberships.all();
        }

        Map<Long, Boolean> dates() {
            Map<Long, Boolean> named = new HashMap<>();
            if (dates != null) {
                dates.all().forEach(date -> named.put(date.getKey(), date.getValue()));
            }
            return named;
        }
    }
}

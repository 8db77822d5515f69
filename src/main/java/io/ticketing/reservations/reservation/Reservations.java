package io.ticketing.reservations.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.ticketing.reservations.inventory.EventOwnedEntity;
import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.QuotaCounter;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.inventory.QuotaCounter.Membership;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.SeatHolds;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.InventoryChanged;

/**
 * Checks that claims fit, under the locks: the one path by which every flow consumes capacity.
 *
 * <p>What each flow claims, and therefore locks (see {@link #objectsToLock}):
 * <ul>
 * <li>add to cart: the new positions;</li>
 * <li>extend a cart, check out: the cart's positions that expired or are about to (the rest keep their hold);</li>
 * <li>mark an expired order paid: all its positions.</li>
 * </ul>
 * For each claim that is its item's finite quotas (but those its voucher blocks in, where the voucher holds that
 * capacity already: contract section 1), its seat and its voucher; and the buyer, once, when a per-buyer limit applies to any
 * claim. Best available seats lock the event exclusively ({@link #reserveChosen}). Admin changes lock in
 * {@link AdminReservations} and {@code InventoryService}; freeing capacity locks nothing.
 *
 * <p>Callers run in a {@code @DurableTransaction} and call {@link #reserve} once, then write; or, to spare the
 * lock holder round trips, {@link #prepare}, send {@link Reservation#readBeforeLocks} with reads of their own, and
 * call {@link Reservation#reserveThen} with the write. Everything read
 * after the locks (quota sizes, memberships, counts) is what the previous holder committed.
 */
@ApplicationScoped
public class Reservations {

    /** The claimed seats that cannot be sold to this buyer. */
    private static final String TAKEN_SEATS = "SELECT s.id FROM seats s WHERE s.id = ANY(:seats) AND "
            + SeatHolds.UNAVAILABLE + " LIMIT 1";

    /** Uses left per voucher. One statement: a checkout moving uses from carts to redeemed is seen whole. */
    private static final String VOUCHER_USES_LEFT = """
            SELECT v.id, v.max_usages - v.redeemed - (SELECT count(*) FROM cart_positions c
                     WHERE c.voucher_id = v.id AND c.expires >= now() AND c.id <> ALL(:own))
            FROM vouchers v WHERE v.id = ANY(:vouchers)""";

    /**
     * What one buyer holds and has bought in the event, per item, other than {@code :own}. One statement: a
     * checkout moving positions from a cart to an order is seen before or after, never both or neither.
     */
    private static final String BUYER_HOLDINGS = """
            SELECT item_id, count(*) FROM (
              SELECT p.item_id FROM carts c JOIN cart_positions p ON p.cart_id = c.id
              WHERE c.event_id = :event AND c.buyer = :buyer AND p.expires >= now() AND p.id <> ALL(:own)
              UNION ALL
              SELECT p.item_id FROM orders o JOIN order_positions p ON p.order_id = o.id
              WHERE o.event_id = :event AND o.buyer = :buyer AND o.status IN ('pending', 'paid')
            ) held GROUP BY item_id""";

    private final AdvisoryLocks locks;
    private final QuotaCounter counter;
    private final Jdbc jdbc;
    private final MeterRegistry meters;
    private final Deadlines deadlines;
    private final ReservationCheckpoints checkpoints;

    Reservations(AdvisoryLocks locks, QuotaCounter counter, Jdbc jdbc, MeterRegistry meters, Deadlines deadlines,
            ReservationCheckpoints checkpoints) {
        this.deadlines = deadlines;
        this.checkpoints = checkpoints;
        this.locks = locks;
        this.counter = counter;
        this.jdbc = jdbc;
        this.meters = meters;
    }

    /**
     * Locks what {@code claims} consume and checks that they fit; throws a {@link ReservationConflict} if not.
     * {@code ownPositions} are cart positions being re-checked: they do not count against themselves. {@code buyer}
     * is the cart's or order's buyer, or null.
     */
    public void reserve(long eventId, String buyer, List<Claim> claims, Collection<Long> ownPositions) {
        readThenReserve(withEntities(eventId, claims, ownPositions, false), buyer, null);
    }

    /**
     * For a flow that learns what it takes only by reading under the lock (best available seats, contract section
     * 8): locks the event exclusively with {@code read}, lets {@code choose} turn its rows into claims (or throw a
     * refusal), checks them as {@link #reserve} does without locking again, and sends {@code write}, whose rows it
     * returns. Nothing else can consume the event's inventory until the commit.
     */
    public <R, T> List<T> reserveChosen(long eventId, String buyer, Jdbc.Query<R> read,
            Function<List<R>, List<Claim>> choose, Function<List<Claim>, Jdbc.Query<T>> write) {
        Jdbc.RoundTrip withLock = jdbc.roundTrip();
        Jdbc.Rows<R> rows = withLock.add(read);
        checkpoints.beforeLocks(eventId, 1);
        locks.lockEventThen(eventId, withLock);
        List<Claim> claims = countingRefusals(() -> choose.apply(rows.all()));
        return readThenReserve(withEntities(eventId, claims, List.of(), true), buyer, write.apply(claims));
    }

    /**
     * {@link #reserve} in steps, for a flow with reads of its own to send in the same round trip as the
     * reservation's: send {@link Reservation#readBeforeLocks} with them, then call {@link Reservation#reserveThen}
     * once.
     */
    public Reservation prepare(long eventId, List<Claim> claims, Collection<Long> ownPositions) {
        return withEntities(eventId, claims, ownPositions, false);
    }

    /** {@link #prepare} for a flow that has read the claims' seats and vouchers already, by id. */
    public Reservation prepare(long eventId, List<Claim> claims, Collection<Long> ownPositions,
            Map<Long, Seat> seats, Map<Long, Voucher> vouchers) {
        return new Reservation(eventId, claims, List.of(), ownPositions, seats, vouchers, false);
    }

    /**
     * {@link #prepare} for an order change (contract section 9): the flow has removed the positions {@code freed}
     * claimed, in its transaction, before the reservation counts, and adds {@code claims}. It locks and checks only
     * what the change consumes more of: the quotas whose usage grows net, the seats it does not take back, the
     * vouchers it uses more often.
     */
    private Reservation prepareChange(long eventId, List<Claim> claims, List<Claim> freed) {
        List<Claim> both = new ArrayList<>(claims);
        both.addAll(freed);
        return new Reservation(eventId, claims, freed, List.of(),
                EventOwnedEntity.byIds(Seat.class, eventId, ids(claims, Claim::seatId)),
                EventOwnedEntity.byIds(Voucher.class, eventId, ids(both, Claim::voucherId)), false);
    }

    /**
     * An order change's reservation (see {@link #prepareChange}): locks what grows, counts, checks, and sends
     * {@code write} with them, whose rows it returns.
     */
    public <T> List<T> reserveChange(long eventId, String buyer, List<Claim> claims, List<Claim> freed,
            Jdbc.Query<T> write) {
        return readThenReserve(prepareChange(eventId, claims, freed), buyer, write);
    }

    /** A reservation with the claims' seats and vouchers read by id. */
    private Reservation withEntities(long eventId, List<Claim> claims, Collection<Long> ownPositions,
            boolean eventLocked) {
        return new Reservation(eventId, claims, List.of(), ownPositions,
                EventOwnedEntity.byIds(Seat.class, eventId, ids(claims, Claim::seatId)),
                EventOwnedEntity.byIds(Voucher.class, eventId, ids(claims, Claim::voucherId)), eventLocked);
    }

    /** The reads that decide the locks, in a round trip of their own, then the reservation. */
    private <T> List<T> readThenReserve(Reservation reservation, String buyer, Jdbc.Query<T> write) {
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        reservation.readBeforeLocks(reads);
        reads.send();
        return reservation.reserveThen(buyer, write);
    }

    /** Claims whose items and quotas are being read, before the locks. */
    public final class Reservation {

        private final long eventId;
        private final List<Claim> claims;
        /** What the flow removed in its transaction before it counts (an order change's old positions). */
        private final List<Claim> freed;
        private final Collection<Long> ownPositions;
        private final Map<Long, Seat> seats;
        private final Map<Long, Voucher> vouchers;
        /** Whether the caller holds the event's exclusive lock already ({@link #reserveChosen}). */
        private final boolean eventLocked;
        private Jdbc.Rows<ItemForSale> items;
        private Jdbc.Rows<Membership> memberships;

        private Reservation(long eventId, List<Claim> claims, List<Claim> freed, Collection<Long> ownPositions,
                Map<Long, Seat> seats,
                Map<Long, Voucher> vouchers, boolean eventLocked) {
            this.eventLocked = eventLocked;
            this.eventId = eventId;
            this.claims = claims;
            this.freed = freed;
            this.ownPositions = ownPositions;
            this.seats = seats;
            this.vouchers = vouchers;
        }

        /** Queues what deciding which objects to lock needs: the items, and the quotas they are in. */
        public void readBeforeLocks(Jdbc.RoundTrip reads) {
            if (!claims.isEmpty()) {
                Set<Long> itemIds = ids(claims, Claim::itemId);
                itemIds.addAll(ids(freed, Claim::itemId));
                items = reads.add(counter.itemsForSale(eventId, itemIds));
                memberships = reads.add(counter.membershipsOf(itemIds));
            }
        }

        /**
         * Locks what the claims of {@code buyer} (or null) consume and sends with the locks, in one round trip, what
         * the checks read and then {@code write} (when not null), whose rows it returns. The checks run when the rows
         * are back; if one fails, it throws and the transaction rolls back, {@code write} with it. So the lock holder
         * waits for the service only before its commit. {@code write} runs after the checks' reads, which therefore do
         * not see it.
         */
        public <T> List<T> reserveThen(String buyer, Jdbc.Query<T> write) {
            if (claims.isEmpty()) {
                return write == null ? List.of() : write.list();
            }
            return countingRefusals(() -> {
                Map<Long, ItemForSale> itemsById = items.all().stream()
                        .collect(Collectors.toMap(ItemForSale::id, Function.identity()));
                List<Membership> membershipsBefore = memberships.all();
                Instant now = deadlines.now();
                ReservationChecks.checkRules(claims, itemsById, seats, vouchers, membershipsBefore, now);

                boolean limited = ReservationChecks.checkBuyerKnown(claims, itemsById, buyer);
                Set<LockTarget> locked = ReservationChecks.objectsToLock(claims, freed, vouchers, membershipsBefore,
                        now);
                if (limited) {
                    locked.add(LockTarget.buyer(eventId, buyer));
                }
                Set<Long> seatIds = ids(claims, Claim::seatId);
                seatIds.removeAll(ids(freed, Claim::seatId));
                Map<Long, Long> voucherUses = ReservationChecks.moreUses(claims, freed);
                Jdbc.RoundTrip afterLocks = jdbc.roundTrip();
                Jdbc.Rows<CountedQuota> quotas = afterLocks.add(counter.ofItemsQuery(itemsById.keySet(), ownPositions));
                Jdbc.Rows<Long> takenSeats = seatIds.isEmpty()
                        ? null
                        : afterLocks.add(takenSeats(seatIds, ownPositions, ids(claims, Claim::voucherId)));
                Jdbc.Rows<long[]> usesLeft = voucherUses.isEmpty()
                        ? null
                        : afterLocks.add(voucherUsesLeft(voucherUses.keySet(), ownPositions));
                Jdbc.Rows<long[]> held = limited
                        ? afterLocks.add(buyerHoldings(eventId, buyer, ownPositions))
                        : null;
                Jdbc.Rows<T> written = write == null ? null : afterLocks.add(write);
                if (eventLocked) {
                    afterLocks.send();
                } else {
                    checkpoints.beforeLocks(eventId, 1);
                    locks.lockObjectsThen(eventId, locked, afterLocks);
                }

                if (!eventLocked) {
                    requireLocked(ReservationChecks.objectsToLock(claims, freed, vouchers, quotas.all(), now),
                            locked);
                }
                try {
                    ReservationChecks.checkQuotas(claims, itemsById, vouchers, quotas.all(), now, locked);
                    if (takenSeats != null) {
                        takenSeats.first().ifPresent(taken -> {
                            throw ReservationConflict.seatUnavailable(seats.get(taken));
                        });
                    }
                    if (usesLeft != null) {
                        ReservationChecks.checkVouchers(voucherUses, vouchers, usesLeft.all());
                    }
                    if (held != null) {
                        ReservationChecks.checkBuyerLimits(claims, itemsById, held.all());
                    }
                } catch (ReservationConflict refused) {
                    // Decided too: a race holds a refusal as it holds a success, or waits for a racer already gone.
                    checkpoints.afterChecks(eventId, 1);
                    throw refused;
                }
                checkpoints.afterChecks(eventId, 1);
                return written == null ? List.of() : written.all();
            });
        }
    }

    /** One request's claims in a batch ({@link ClaimBatches}), with the seats and vouchers they name. */
    public record Claimant(List<Claim> claims, Map<Long, Seat> seats, Map<Long, Voucher> vouchers) {
    }

    /** The claims of several requests, to be decided together: see {@link Together}. */
    public Together prepareTogether(long eventId, List<Claimant> claimants) {
        return new Together(eventId, claimants);
    }

    /**
     * Several requests' claims decided in one durable transaction: one round trip of reads before the locks, one
     * lock call on the union of what they consume (section 2's rules apply to the union), one round trip that
     * counts; then each request in arrival order against what is left after those before it. A request that does
     * not fit is refused alone and never refuses another. Add-only: no claimant re-checks positions of its own.
     */
    public final class Together {

        private final long eventId;
        private final List<Claimant> claimants;
        private Jdbc.Rows<ItemForSale> items;
        private Jdbc.Rows<Membership> memberships;

        private Together(long eventId, List<Claimant> claimants) {
            this.eventId = eventId;
            this.claimants = claimants;
        }

        /** Queues the reads that decide the locks: every claimant's items and the quotas they are in. */
        public void readBeforeLocks(Jdbc.RoundTrip reads) {
            Set<Long> itemIds = claimants.stream().flatMap(claimant -> claimant.claims().stream())
                    .map(Claim::itemId).collect(Collectors.toCollection(TreeSet::new));
            items = reads.add(counter.itemsForSale(eventId, itemIds));
            memberships = reads.add(counter.membershipsOf(itemIds));
        }

        /**
         * Locks, counts and decides. {@code buyers} and {@code refusals} have one entry per claimant: its buyer (or
         * null), and its refusal if it is refused already (its cart is gone). Returns every claimant's refusal, null
         * for those whose claims fit and are to be written.
         */
        public List<ApiException> decide(List<String> buyers, List<ApiException> refusals) {
            List<ApiException> outcome = new ArrayList<>(refusals);
            Map<Long, ItemForSale> itemsById = items.all().stream()
                    .collect(Collectors.toMap(ItemForSale::id, Function.identity()));
            List<Membership> membershipsBefore = memberships.all();
            Instant now = deadlines.now();
            Set<LockTarget> locked = new HashSet<>();
            boolean[] limited = new boolean[claimants.size()];
            for (int i = 0; i < claimants.size(); i++) {
                Claimant claimant = claimants.get(i);
                if (outcome.get(i) != null) {
                    continue;
                }
                try {
                    ReservationChecks.checkRules(claimant.claims(), itemsById, claimant.seats(), claimant.vouchers(),
                            membershipsBefore, now);
                    limited[i] = ReservationChecks.checkBuyerKnown(claimant.claims(), itemsById, buyers.get(i));
                } catch (ApiException refused) {
                    outcome.set(i, counted(refused));
                    continue;
                }
                locked.addAll(ReservationChecks.objectsToLock(claimant.claims(), List.of(), claimant.vouchers(),
                        membershipsBefore, now));
                if (limited[i]) {
                    locked.add(LockTarget.buyer(eventId, buyers.get(i)));
                }
            }
            List<Integer> open = new ArrayList<>();
            for (int i = 0; i < claimants.size(); i++) {
                if (outcome.get(i) == null) {
                    open.add(i);
                }
            }
            if (open.isEmpty()) {
                return outcome;
            }
            Map<Long, Voucher> allVouchers = new HashMap<>();
            open.forEach(i -> allVouchers.putAll(claimants.get(i).vouchers()));
            List<Claim> allClaims = open.stream().flatMap(i -> claimants.get(i).claims().stream()).toList();

            Jdbc.RoundTrip afterLocks = jdbc.roundTrip();
            Jdbc.Rows<CountedQuota> quotas = afterLocks.add(counter.ofItemsQuery(itemsById.keySet(), List.of()));
            Map<Integer, Jdbc.Rows<Long>> takenSeats = new HashMap<>();
            for (int i : open) {
                List<Claim> claims = claimants.get(i).claims();
                Set<Long> seatIds = ids(claims, Claim::seatId);
                if (!seatIds.isEmpty()) {
                    takenSeats.put(i, afterLocks.add(takenSeats(seatIds, List.of(), ids(claims, Claim::voucherId))));
                }
            }
            Set<Long> voucherIds = ids(allClaims, Claim::voucherId);
            Jdbc.Rows<long[]> usesLeft = voucherIds.isEmpty()
                    ? null
                    : afterLocks.add(voucherUsesLeft(voucherIds, List.of()));
            Map<String, Jdbc.Rows<long[]>> heldByBuyer = new HashMap<>();
            for (int i : open) {
                if (limited[i]) {
                    heldByBuyer.computeIfAbsent(buyers.get(i),
                            buyer -> afterLocks.add(buyerHoldings(eventId, buyer, List.of())));
                }
            }
            checkpoints.beforeLocks(eventId, open.size());
            locks.lockObjectsThen(eventId, locked, afterLocks);
            requireLocked(ReservationChecks.objectsToLock(allClaims, List.of(), allVouchers, quotas.all(), now),
                    locked);

            // What the claimants decided so far take, counted against the next ones.
            Map<Long, Long> quotaTaken = new HashMap<>();
            Set<Long> seatsTaken = new HashSet<>();
            Map<Long, Long> voucherUsesTaken = new HashMap<>();
            Map<String, Map<Long, Long>> buyerTaken = new HashMap<>();
            Map<Long, Long> usesLeftCounted = new HashMap<>();
            if (usesLeft != null) {
                usesLeft.all().forEach(row -> usesLeftCounted.put(row[0], row[1]));
            }
            for (int i : open) {
                Claimant claimant = claimants.get(i);
                List<Claim> claims = claimant.claims();
                try {
                    ReservationChecks.checkQuotas(claims, itemsById, claimant.vouchers(), quotas.all().stream()
                            .map(quota -> quota.holdingMore(quotaTaken.getOrDefault(quota.id(), 0L))).toList(), now,
                            locked);
                    for (Claim claim : claims) {
                        if (claim.seatId() != null && seatsTaken.contains(claim.seatId())) {
                            throw ReservationConflict.seatUnavailable(claimant.seats().get(claim.seatId()));
                        }
                    }
                    Jdbc.Rows<Long> taken = takenSeats.get(i);
                    if (taken != null) {
                        taken.first().ifPresent(seat -> {
                            throw ReservationConflict.seatUnavailable(claimant.seats().get(seat));
                        });
                    }
                    Map<Long, Long> uses = claims.stream().map(Claim::voucherId).filter(Objects::nonNull)
                            .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
                    ReservationChecks.checkVouchers(uses, claimant.vouchers(), uses.keySet().stream()
                            .map(voucher -> new long[]{voucher, usesLeftCounted.getOrDefault(voucher, 0L)
                                    - voucherUsesTaken.getOrDefault(voucher, 0L)})
                            .toList());
                    if (limited[i]) {
                        Map<Long, Long> held = new HashMap<>(
                                buyerTaken.getOrDefault(buyers.get(i), Map.of()));
                        heldByBuyer.get(buyers.get(i)).all().forEach(row -> held.merge(row[0], row[1], Long::sum));
                        ReservationChecks.checkBuyerLimits(claims, itemsById, held.entrySet().stream()
                                .map(entry -> new long[]{entry.getKey(), entry.getValue()}).toList());
                    }
                } catch (ReservationConflict refused) {
                    outcome.set(i, counted(refused));
                    continue;
                }
                for (Claim claim : claims) {
                    ReservationChecks.quotasGrownBy(claim, claimant.vouchers(), quotas.all(), now)
                            .forEach(quota -> quotaTaken.merge(quota.id(), 1L, Long::sum));
                    if (claim.seatId() != null) {
                        seatsTaken.add(claim.seatId());
                    }
                    if (claim.voucherId() != null) {
                        voucherUsesTaken.merge(claim.voucherId(), 1L, Long::sum);
                    }
                    if (limited[i]) {
                        buyerTaken.computeIfAbsent(buyers.get(i), buyer -> new HashMap<>())
                                .merge(claim.itemId(), 1L, Long::sum);
                    }
                }
            }
            checkpoints.afterChecks(eventId, open.size());
            return outcome;
        }
    }

    private ApiException counted(ApiException refusal) {
        if (refusal instanceof ReservationConflict conflict) {
            meters.counter("inventory.refusals", "code", conflict.code()).increment();
        }
        return refusal;
    }

    <T> T countingRefusals(Supplier<T> flow) {
        try {
            return flow.get();
        } catch (ReservationConflict refusal) {
            meters.counter("inventory.refusals", "code", refusal.code()).increment();
            throw refusal;
        }
    }

    /**
     * Memberships and sizes are read again once the locks are held. An admin change committed in between can
     * have put an item in a finite quota this transaction did not lock; counting it unlocked could oversell,
     * so the transaction is rolled back and run again (see {@code DurableTransactions}), and then locks it. The
     * exclusive event lock covers every quota.
     */
    public void requireLocked(Collection<LockTarget> neededNow, Set<LockTarget> locked) {
        boolean eventLockedExclusively = locked.size() > AdvisoryLocks.MAX_EXCLUSIVE_OBJECTS;
        if (!eventLockedExclusively && !locked.containsAll(neededNow)) {
            throw new InventoryChanged();
        }
    }

    Jdbc.Query<Long> takenSeats(Set<Long> seatIds, Collection<Long> ownPositions, Set<Long> voucherIds) {
        return jdbc.statement(TAKEN_SEATS).set("seats", seatIds.toArray(Long[]::new))
                .set("own", ownPositions.toArray(Long[]::new)).set("vouchers", voucherIds.toArray(Long[]::new))
                .reading(row -> row.getLong(1));
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

    private static Set<Long> ids(List<Claim> claims, Function<Claim, Long> id) {
        return claims.stream().map(id).filter(Objects::nonNull).collect(Collectors.toCollection(TreeSet::new));
    }
}

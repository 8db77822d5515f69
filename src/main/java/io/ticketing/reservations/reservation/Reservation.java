package io.ticketing.reservations.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;

import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.inventory.QuotaCounter.Membership;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.problem.NotFoundException;

/**
 * One request's change, as {@link Reservations} judges it: the claims it leaves (new positions, each followed by what
 * its item bundles; positions re-checked; an order change's changed and added positions, with what it frees), read
 * before the locks ({@link #readBeforeLocks}), then locked, counted and judged by {@link ReservationChecks#checkFits}
 * in one round trip with the flow's write ({@link #reserveThen}).
 */
public final class Reservation {

    private final Reservations engine;

    private final long eventId;
    private final List<Claim> claims;
    /** What the flow removed in its transaction before it counts (an order change's old positions). */
    private final List<Claim> freed;
    /** Of {@link #freed}, the positions whose voucher uses stay redeemed: rewritten, they use them again. */
    private final List<Claim> usesKept;
    /** What frees {@link #freed}: sent after the locks, before the count sees what is left. */
    final List<Jdbc.Statement> freeing = new ArrayList<>();
    private final Collection<Long> ownPositions;
    private final Map<Long, Seat> seats;
    private final Map<Long, Voucher> vouchers;
    /** The claims from this index on are new positions: they bring what their items bundle. */
    private final int firstNew;
    /** What the caller holds already ({@link Reservations#reserveChosen}), or null: this reservation locks. */
    private final AdvisoryLocks.Held held;
    /**
     * A transfer ({@link Reservations#reserveTransfer}): the claims are positions sold already, freed and written
     * again as they are, so no sale rule is judged again and no quota, seat or voucher grows; only the holder's
     * limits can.
     */
    boolean sold;
    /** Of a transfer: the holder is the buyer the positions count for already, so not even its limits grow. */
    boolean countedForHolder;
    private ReservationReads.Before read;

    Reservation(Reservations engine, long eventId, List<Claim> claims, List<Claim> freed, List<Claim> usesKept,
            Collection<Long> ownPositions, Map<Long, Seat> seats, Map<Long, Voucher> vouchers, int firstNew,
            AdvisoryLocks.Held held) {
        this.engine = engine;
        this.usesKept = usesKept;
        this.held = held;
        this.eventId = eventId;
        this.claims = claims;
        this.freed = freed;
        this.ownPositions = ownPositions;
        this.seats = seats;
        this.vouchers = vouchers;
        this.firstNew = firstNew;
    }

    /** Queues what deciding which objects to lock needs: the items, the quotas they are in, the dates named. */
    public void readBeforeLocks(Jdbc.RoundTrip reads) {
        if (!claims.isEmpty()) {
            Set<Long> itemIds = Reservations.ids(claims, Claim::itemId);
            itemIds.addAll(Reservations.ids(freed, Claim::itemId));
            read = engine.reads.before(eventId, itemIds, ReservationChecks.datesNamed(claims), reads);
        }
    }

    /** The claims as they will be written: the new ones followed each by what its item bundles. */
    private List<Claim> expanded(Map<Long, ItemForSale> items) {
        if (firstNew >= claims.size()) {
            return claims;
        }
        List<Claim> expanded = new ArrayList<>(claims.subList(0, firstNew));
        ReservationChecks.withBundles(claims.subList(firstNew, claims.size()), items).stream()
                .map(claim -> claim.bundledIn() == null
                        ? claim
                        : new Claim(claim.itemId(), null, null, claim.dateId(), null, claim.bundledIn() + firstNew))
                .forEach(expanded::add);
        return expanded;
    }

    /**
     * For best available on one date: what the item's claims there would lock beyond the date, checked as a claim
     * is (the item's finite quotas of the whole event, the buyer if a limit applies).
     */
    Set<LockTarget> objectsOutside(long date, Holder holder) {
        Map<Long, ItemForSale> items = read.items();
        List<Membership> memberships = read.memberships();
        Instant now = engine.deadlines.now();
        ItemForSale item = items.get(claims.get(0).itemId());
        if (item == null) {
            throw new NotFoundException("item", claims.get(0).itemId());
        }
        Boolean onSale = read.dates().get(date);
        if (onSale == null) {
            throw new NotFoundException("date", date);
        }
        if (!onSale) {
            throw ReservationConflict.dateUnavailable(date);
        }
        Set<LockTarget> outside = new HashSet<>();
        expanded(items).forEach(claim -> ClaimQuotas.quotasGrownBy(claim, items, vouchers, memberships, now)
                .stream().filter(quota -> quota.dateId() == null)
                .forEach(quota -> outside.add(quota.lockTarget())));
        if (ReservationChecks.checkBuyerKnown(claims, items, holder.buyer())) {
            outside.add(LockTarget.buyer(eventId, holder.buyer()));
        }
        return outside;
    }

    /**
     * Locks what the claims of {@code holder} consume and sends with the locks, in one round trip, what
     * the checks read and then the query {@code write} makes of the claims as they will be written (when not
     * null), whose rows it returns. The checks run when the rows are back; if one fails, it throws and the
     * transaction rolls back, the write with it. So the lock holder waits for the service only before its commit.
     * The write runs after the checks' reads, which therefore do not see it.
     */
    public <T> List<T> reserveThen(Holder holder, Function<List<Claim>, Jdbc.Query<T>> write) {
        String buyer = holder.buyer();
        if (claims.isEmpty()) {
            Jdbc.RoundTrip freeingOnly = engine.jdbc.roundTrip();
            freeing.forEach(freeingOnly::add);
            Jdbc.Rows<T> written = write == null ? null : freeingOnly.add(write.apply(claims));
            freeingOnly.send();
            return written == null ? List.of() : written.all();
        }
        return engine.countingRefusals(() -> {
            Map<Long, ItemForSale> itemsById = read.items();
            List<Membership> membershipsBefore = read.memberships();
            Instant now = engine.deadlines.now();
            List<Claim> toWrite = expanded(itemsById);
            if (!sold) {
                ClaimRules.checkRules(toWrite, itemsById, seats, vouchers, membershipsBefore, read.dates(),
                        holder.channel(), now);
            }
            boolean limited = !countedForHolder && ReservationChecks.checkBuyerKnown(toWrite, itemsById, buyer);
            Set<LockTarget> locked = ReservationChecks.objectsToLock(toWrite, freed, usesKept, itemsById, seats,
                    vouchers,
                    membershipsBefore, now);
            if (limited) {
                locked.add(LockTarget.buyer(eventId, buyer));
            }
            Set<Long> seatIds = new TreeSet<>();
            toWrite.forEach(claim -> seatIds.addAll(ReservationChecks.seatIds(claim, itemsById, seats)));
            freed.forEach(claim -> seatIds.removeAll(ReservationChecks.seatIds(claim, itemsById, seats)));
            Map<Long, Long> voucherUses = ReservationChecks.moreUses(toWrite, usesKept);
            Jdbc.RoundTrip afterLocks = engine.jdbc.roundTrip();
            freeing.forEach(afterLocks::add);
            // A transfer grows no quota: nothing to count.
            Jdbc.Rows<CountedQuota> quotas = sold
                    ? null
                    : afterLocks.add(engine.counter.ofItemsQuery(itemsById.keySet(),
                            ReservationChecks.datesCounted(Stream.concat(toWrite.stream(), freed.stream()).toList(),
                                    itemsById),
                            ownPositions));
            Jdbc.Rows<Long> takenSeats = seatIds.isEmpty()
                    ? null
                    : afterLocks.add(engine.reads.takenSeats(seatIds, ownPositions,
                            Reservations.ids(toWrite, Claim::voucherId)));
            List<Seat> seatsRead = seatIds.stream().map(seats::get).toList();
            Jdbc.Rows<ReservationReads.MovedSeat> movedSeats = seatIds.isEmpty()
                    ? null
                    : afterLocks.add(engine.reads.movedSeats(seatsRead));
            Jdbc.Rows<long[]> usesLeft = voucherUses.isEmpty()
                    ? null
                    : afterLocks.add(engine.reads.voucherUsesLeft(voucherUses.keySet(), ownPositions));
            Jdbc.Rows<long[]> heldByBuyer = limited
                    ? afterLocks.add(engine.reads.buyerHoldings(eventId, buyer, ownPositions))
                    : null;
            Jdbc.Rows<T> written = write == null ? null : afterLocks.add(write.apply(toWrite));
            AdvisoryLocks.Held holding;
            if (held != null) {
                holding = held;
                afterLocks.send();
            } else {
                engine.checkpoints.beforeLocks(eventId, 1);
                holding = engine.locks.lockObjectsThen(eventId, ReservationChecks.datesNamed(toWrite), locked,
                        afterLocks);
            }

            List<CountedQuota> counted = quotas == null ? List.of() : quotas.all();
            engine.requireLocked(ReservationChecks.objectsToLock(toWrite, freed, usesKept, itemsById, seats, vouchers,
                    counted, now), holding);
            ReservationReads.requireUnmoved(movedSeats == null ? List.of() : movedSeats.all(), seatsRead);
            try {
                ReservationChecks.checkFits(toWrite, itemsById, seats, vouchers, usesKept,
                        new ReservationChecks.Left(counted,
                                takenSeats == null ? null : takenSeats.first().orElse(null),
                                usesLeft == null ? Map.of() : ReservationChecks.Left.byId(usesLeft.all()),
                                heldByBuyer == null ? null : ReservationChecks.Left.byId(heldByBuyer.all())),
                        holder.channel(), now, holding, sold);
            } catch (ReservationConflict refused) {
                // Decided too: a race holds a refusal as it holds a success, or waits for a racer already gone.
                engine.checkpoints.afterChecks(eventId, 1);
                throw refused;
            }
            engine.checkpoints.afterChecks(eventId, 1);
            return written == null ? List.of() : written.all();
        });
    }
}

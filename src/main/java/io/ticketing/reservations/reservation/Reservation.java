package io.ticketing.reservations.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;

import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.Membership;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.inventory.Seat;
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
    /** What the change asks for: its claims from {@link #firstNew} on are new, not yet followed by what they bring. */
    private final Change asked;
    /** The claims from this index on are new positions: they bring what their items bundle. */
    private final int firstNew;
    /** By a new claim's index, what it still brings as it is (an order change's rewritten bundle position). */
    private final Map<Integer, Map<Long, Integer>> stillBrought;
    /** What frees {@link Change#freed}: sent after the locks, before the count sees what is left. */
    final List<Jdbc.Statement> freeing = new ArrayList<>();
    /** What the caller holds already ({@link Reservations#reserveChosen}), or null: this reservation locks. */
    private final AdvisoryLocks.Held held;
    /** Of a transfer: the holder is the buyer the positions count for already, so not even its limits grow. */
    boolean countedForHolder;
    private ReservationReads.Before read;

    Reservation(Reservations engine, long eventId, Change asked, int firstNew,
            Map<Integer, Map<Long, Integer>> stillBrought, AdvisoryLocks.Held held) {
        this.engine = engine;
        this.eventId = eventId;
        this.asked = asked;
        this.firstNew = firstNew;
        this.stillBrought = stillBrought;
        this.held = held;
    }

    /** Queues what deciding which objects to lock needs: the items, the quotas they are in, the dates named. */
    public void readBeforeLocks(Jdbc.RoundTrip reads) {
        if (!asked.claims().isEmpty()) {
            Set<Long> itemIds = Reservations.ids(asked.claims(), Claim::itemId);
            itemIds.addAll(Reservations.ids(asked.freed(), Claim::itemId));
            read = engine.reads.before(eventId, itemIds, ReservationChecks.datesNamed(asked.claims()), reads);
        }
    }

    /** The change as it will be written: its new claims followed each by what its item bundles. */
    private Change expanded(Map<Long, ItemForSale> items) {
        List<Claim> claims = asked.claims();
        if (firstNew >= claims.size()) {
            return asked;
        }
        Map<Integer, Map<Long, Integer>> keptOfNew = new HashMap<>();
        stillBrought.forEach((index, kept) -> keptOfNew.put(index - firstNew, kept));
        List<Claim> expanded = new ArrayList<>(claims.subList(0, firstNew));
        ReservationChecks.withBundles(claims.subList(firstNew, claims.size()), items, keptOfNew).stream()
                .map(claim -> claim.bundledIn() == null
                        ? claim
                        : new Claim(claim.itemId(), null, null, claim.dateId(), null, claim.bundledIn() + firstNew))
                .forEach(expanded::add);
        return asked.writing(expanded);
    }

    /**
     * For best available on one date: what the item's claims there would lock beyond the date, checked as a claim
     * is (the item's finite quotas of the whole event, the buyer if a limit applies).
     */
    Set<LockTarget> objectsOutside(long date, Holder holder) {
        Map<Long, ItemForSale> items = read.items();
        List<Membership> memberships = read.memberships();
        Instant now = engine.deadlines.now();
        ItemForSale item = items.get(asked.claims().get(0).itemId());
        if (item == null) {
            throw new NotFoundException("item", asked.claims().get(0).itemId());
        }
        Boolean onSale = read.dates().get(date);
        if (onSale == null) {
            throw new NotFoundException("date", date);
        }
        if (!onSale) {
            throw ReservationConflict.dateUnavailable(date);
        }
        Set<LockTarget> outside = new HashSet<>();
        expanded(items).claims().forEach(claim -> ClaimQuotas
                .quotasGrownBy(claim, items, asked.vouchers(), memberships, now).stream()
                .filter(quota -> quota.dateId() == null).forEach(quota -> outside.add(quota.lockTarget())));
        if (ReservationChecks.checkBuyerKnown(asked.claims(), items, holder.buyer())) {
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
        if (asked.claims().isEmpty()) {
            Jdbc.RoundTrip freeingOnly = engine.jdbc.roundTrip();
            freeing.forEach(freeingOnly::add);
            Jdbc.Rows<T> written = write == null ? null : freeingOnly.add(write.apply(List.of()));
            freeingOnly.send();
            return written == null ? List.of() : written.all();
        }
        return engine.countingRefusals(() -> {
            Map<Long, ItemForSale> itemsById = read.items();
            List<Membership> membershipsBefore = read.memberships();
            Instant now = engine.deadlines.now();
            Change change = expanded(itemsById);
            List<Claim> claims = change.claims();
            if (!change.sold()) {
                ClaimRules.checkRules(change, itemsById, membershipsBefore, read.dates(), holder.channel(), now);
            }
            boolean limited = !countedForHolder && ReservationChecks.checkBuyerKnown(claims, itemsById, buyer);
            Set<LockTarget> locked = ReservationChecks.objectsToLock(change, itemsById, membershipsBefore, now);
            if (limited) {
                locked.add(LockTarget.buyer(eventId, buyer));
            }
            Set<Long> seatIds = new TreeSet<>();
            claims.forEach(claim -> seatIds.addAll(ReservationChecks.seatIds(claim, itemsById, change.seats())));
            change.freed().forEach(claim -> seatIds.removeAll(ReservationChecks.seatIds(claim, itemsById,
                    change.seats())));
            Map<Long, Long> voucherUses = ReservationChecks.moreUses(change);
            Jdbc.RoundTrip afterLocks = engine.jdbc.roundTrip();
            freeing.forEach(afterLocks::add);
            // A transfer grows no quota: nothing to count.
            Jdbc.Rows<CountedQuota> quotas = change.sold()
                    ? null
                    : afterLocks.add(engine.counter.ofItemsQuery(itemsById.keySet(),
                            ReservationChecks.datesCounted(Stream.concat(claims.stream(), change.freed().stream())
                                    .toList(), itemsById),
                            change.ownPositions()));
            Jdbc.Rows<Long> takenSeats = seatIds.isEmpty()
                    ? null
                    : afterLocks.add(engine.reads.takenSeats(seatIds, change.ownPositions(), change.voucherIds()));
            List<Seat> seatsRead = seatIds.stream().map(change.seats()::get).toList();
            Jdbc.Rows<ReservationReads.MovedSeat> movedSeats = seatIds.isEmpty()
                    ? null
                    : afterLocks.add(engine.reads.movedSeats(seatsRead));
            Jdbc.Rows<long[]> usesLeft = voucherUses.isEmpty()
                    ? null
                    : afterLocks.add(engine.reads.voucherUsesLeft(voucherUses.keySet(), change.ownPositions()));
            Jdbc.Rows<long[]> heldByBuyer = limited
                    ? afterLocks.add(engine.reads.buyerHoldings(eventId, buyer, change.ownPositions()))
                    : null;
            Jdbc.Rows<T> written = write == null ? null : afterLocks.add(write.apply(claims));
            AdvisoryLocks.Held holding;
            if (held != null) {
                holding = held;
                afterLocks.send();
            } else {
                engine.checkpoints.beforeLocks(eventId, 1);
                holding = engine.locks.lockObjectsThen(eventId, ReservationChecks.datesNamed(claims), locked,
                        afterLocks);
            }

            List<CountedQuota> counted = quotas == null ? List.of() : quotas.all();
            engine.requireLocked(ReservationChecks.objectsToLock(change, itemsById, counted, now), holding);
            Reservations.requireSameDates(itemsById, counted);
            ReservationReads.requireUnmoved(movedSeats == null ? List.of() : movedSeats.all(), seatsRead);
            try {
                ReservationChecks.checkFits(change, itemsById,
                        new ReservationChecks.Left(counted,
                                takenSeats == null ? null : takenSeats.first().orElse(null),
                                usesLeft == null ? Map.of() : ReservationChecks.Left.byId(usesLeft.all()),
                                heldByBuyer == null ? null : ReservationChecks.Left.byId(heldByBuyer.all())),
                        holder.channel(), now, holding);
            } catch (ReservationConflict refused) {
                // Decided too: a race holds a refusal as it holds a success, or waits for a racer already gone.
                engine.checkpoints.afterChecks(eventId, 1);
                throw refused;
            }
            engine.checkpoints.afterChecks(eventId, 1);
            engine.checkpoints.fits(eventId);
            return written == null ? List.of() : written.all();
        });
    }
}

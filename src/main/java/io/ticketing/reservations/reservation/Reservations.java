package io.ticketing.reservations.reservation;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
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
import io.ticketing.reservations.inventory.Seat;
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
 * <li>mark an expired order paid: all its positions;</li>
 * <li>transfer positions to another buyer: nothing but the receiver's limits ({@link #reserveTransfer}).</li>
 * </ul>
 * For each claim that is its item's finite quotas (but those its voucher blocks in, where the voucher holds that
 * capacity already: contract section 1; an order change's position that keeps its use grows them, see
 * {@link ClaimQuotas#quotasGrownByEach}), its seat and its voucher; and the buyer, once, when a per-buyer limit
 * applies to any claim. Best available seats lock the event exclusively ({@link #reserveChosen}). Admin changes lock
 * in {@link AdminReservations} (and a quota's shrink in {@code QuotaService}); freeing capacity locks nothing.
 *
 * <p>Callers run in a {@code @DurableTransaction} and call {@link #reserve} once, then write; or, to spare the
 * lock holder round trips, {@link #prepare}, send {@link Reservation#readBeforeLocks} with reads of their own, and
 * call {@link Reservation#reserveThen} with the write. Everything read
 * after the locks (quota sizes, memberships, counts) is what the previous holder committed.
 */
@ApplicationScoped
public class Reservations {

    final AdvisoryLocks locks;
    final QuotaCounter counter;
    final Jdbc jdbc;
    final Deadlines deadlines;
    final ReservationCheckpoints checkpoints;
    final ReservationReads reads;
    private final MeterRegistry meters;

    Reservations(AdvisoryLocks locks, QuotaCounter counter, Jdbc jdbc, MeterRegistry meters, Deadlines deadlines,
            ReservationCheckpoints checkpoints, ReservationReads reads) {
        this.reads = reads;
        this.deadlines = deadlines;
        this.checkpoints = checkpoints;
        this.locks = locks;
        this.counter = counter;
        this.jdbc = jdbc;
        this.meters = meters;
    }

    /**
     * Locks what {@code claims} consume and checks that they fit; throws a {@link ReservationConflict} if not.
     * {@code ownPositions} are cart positions being re-checked: they do not count against themselves, and bring no
     * bundle again. {@code holder} is the cart's or order's buyer and channel.
     */
    public void reserve(long eventId, Holder holder, List<Claim> claims, Collection<Long> ownPositions) {
        readThenReserve(withEntities(eventId, claims, ownPositions, claims.size(), null), holder, null);
    }

    /**
     * For a flow that learns what it takes only by reading under the lock (best available seats, contract section
     * 8): locks {@code date} of the event exclusively (the event when null) with {@code read}, and the objects of the
     * whole event that the item's claims on that date would take; lets {@code choose} turn its rows into claims (or
     * throw a refusal), checks them as {@link #reserve} does without locking again, and sends {@code write}, whose
     * rows it returns. Nothing else can consume the date's inventory until the commit: best available on one date
     * never waits for another's (contract section 10).
     */
    public <R, T> List<T> reserveChosen(long eventId, Long date, long itemId, Holder holder, Jdbc.Query<R> read,
            Function<List<R>, List<Claim>> choose, Function<List<Claim>, Jdbc.Query<T>> write) {
        Jdbc.RoundTrip withLock = jdbc.roundTrip();
        Jdbc.Rows<R> rows = withLock.add(read);
        AdvisoryLocks.Held held;
        if (date == null) {
            checkpoints.beforeLocks(eventId, 1);
            held = locks.lockEventThen(eventId, withLock);
        } else {
            Reservation probe = new Reservation(this, eventId,
                    Change.adding(List.of(Claim.of(itemId, null, null, date)), Map.of(), Map.of()), 0, Map.of(), null);
            Jdbc.RoundTrip reads = jdbc.roundTrip();
            probe.readBeforeLocks(reads);
            reads.send();
            Set<LockTarget> outside = countingRefusals(() -> probe.objectsOutside(date, holder));
            checkpoints.beforeLocks(eventId, 1);
            held = locks.lockDateThen(eventId, date, outside, withLock);
        }
        List<Claim> claims = countingRefusals(() -> choose.apply(rows.all()));
        Reservation chosen = withEntities(eventId, claims, List.of(), 0, held);
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        chosen.readBeforeLocks(reads);
        reads.send();
        return chosen.reserveThen(holder, write);
    }

    /**
     * {@link #reserve} in steps, for a flow with reads of its own to send in the same round trip as the
     * reservation's: send {@link Reservation#readBeforeLocks} with them, then call {@link Reservation#reserveThen}
     * once. The claims are new positions: each brings what its item bundles.
     */
    public Reservation prepare(long eventId, List<Claim> claims, Map<Long, Seat> seats, Map<Long, Voucher> vouchers) {
        return new Reservation(this, eventId, Change.adding(claims, seats, vouchers), 0, Map.of(), null);
    }

    /**
     * An order change's positions (contract section 9): {@code changed}, the positions it rewrites as they become, of
     * {@code changedFrom} as they were (whose voucher uses stay redeemed); {@code added}, new ones; {@code canceled},
     * those it cancels (whose uses it gives back). {@code stillBrought}: by index in {@code changed}, what a rewritten
     * bundle position still brings as it is (contract section 3: those positions stay, untouched).
     */
    public record Rewrite(List<Claim> changed, List<Claim> added, List<Claim> changedFrom, List<Claim> canceled,
            Map<Integer, Map<Long, Integer>> stillBrought) {
    }

    /**
     * An order change's reservation (contract section 9): {@code freeing} removes, after the locks and before the
     * count, the positions the change rewrites and those it cancels, and gives the canceled ones' voucher uses back;
     * then the change writes its changed positions and its added ones. Each written position brings what its item
     * bundles (a position changed into a bundle as an added one does), less what it still brings. It locks only what
     * the change consumes more of (the quotas whose usage grows net, the seats it does not take back, the vouchers it
     * uses more often) and checks what it writes against what is left once the freed positions are gone, each freed
     * voucher use counted once. {@code write} gets the claims to write, the changed ones first, and its rows are
     * returned.
     */
    public <T> List<T> reserveChange(long eventId, Holder holder, Rewrite rewrite, List<Jdbc.Statement> freeing,
            Function<List<Claim>, Jdbc.Query<T>> write) {
        List<Claim> claims = new ArrayList<>(rewrite.changed());
        claims.addAll(rewrite.added());
        List<Claim> freed = new ArrayList<>(rewrite.changedFrom());
        freed.addAll(rewrite.canceled());
        List<Claim> all = new ArrayList<>(claims);
        all.addAll(freed);
        Change change = new Change(claims, freed, rewrite.changedFrom(), List.of(), seatsOf(eventId, claims),
                EventOwnedEntity.byIds(Voucher.class, eventId, ids(all, Claim::voucherId)), false);
        Reservation reservation = new Reservation(this, eventId, change, 0, rewrite.stillBrought(), null);
        reservation.freeing.addAll(freeing);
        return readThenReserve(reservation, holder, write);
    }

    /**
     * A transfer's reservation (contract section 14): positions sold already ({@code moved}, each as
     * {@link HeldPosition#claim} gives it) change hands, to an order of {@code receiver}, written by {@code write}.
     * Judged by the same rule as every change: each is freed and taken again in one count, so no quota, seat or voucher
     * grows and none is locked, and no sale rule is judged again (the item may be off sale, its date past); what can
     * grow is what the receiver holds, so its limits are locked and checked as a cart's, unless it is {@code sender},
     * the buyer they count for already. {@code afterLocks} goes first after the locks (the moving positions' row
     * locks, so that a scan never waits for a transfer that waits for its locks); nothing is counted.
     */
    public <T> List<T> reserveTransfer(long eventId, Holder receiver, Holder sender, List<Claim> moved,
            Jdbc.Statement afterLocks, Function<List<Claim>, Jdbc.Query<T>> write) {
        Reservation transfer = new Reservation(this, eventId, new Change(moved, moved, moved, List.of(),
                seatsOf(eventId, moved), EventOwnedEntity.byIds(Voucher.class, eventId, ids(moved, Claim::voucherId)),
                true), moved.size(), Map.of(), null);
        transfer.countedForHolder = receiver.buyer() != null && receiver.buyer().equals(sender.buyer());
        transfer.freeing.add(afterLocks);
        return readThenReserve(transfer, receiver, write);
    }

    /** A reservation with the claims' seats (a pass's on every date) and vouchers read by id. */
    private Reservation withEntities(long eventId, List<Claim> claims, Collection<Long> ownPositions, int firstNew,
            AdvisoryLocks.Held held) {
        return new Reservation(this, eventId, new Change(claims, List.of(), List.of(), ownPositions,
                seatsOf(eventId, claims), EventOwnedEntity.byIds(Voucher.class, eventId, ids(claims, Claim::voucherId)),
                false), firstNew, Map.of(), held);
    }

    /** The seats the claims name, by id: each claim's seat, and a pass's seat guid on every date. */
    private static Map<Long, Seat> seatsOf(long eventId, List<Claim> claims) {
        Map<Long, Seat> seats = new HashMap<>(EventOwnedEntity.byIds(Seat.class, eventId, ids(claims, Claim::seatId)));
        List<String> passGuids = claims.stream().map(Claim::passSeatGuid).filter(Objects::nonNull).distinct().toList();
        Seat.listByGuids(eventId, passGuids).forEach(seat -> seats.put(seat.id, seat));
        return seats;
    }

    /** The reads that decide the locks, in a round trip of their own, then the reservation. */
    private <T> List<T> readThenReserve(Reservation reservation, Holder holder,
            Function<List<Claim>, Jdbc.Query<T>> write) {
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        reservation.readBeforeLocks(reads);
        reads.send();
        return reservation.reserveThen(holder, write);
    }

    /** One request's claims in a batch ({@link ClaimBatches}), with the seats and vouchers they name. */
    public record Claimant(List<Claim> claims, Map<Long, Seat> seats, Map<Long, Voucher> vouchers) {
    }

    /** The claims of several requests, to be decided together: see {@link Together}. */
    public Together prepareTogether(long eventId, List<Claimant> claimants) {
        return new Together(this, eventId, claimants);
    }

    ApiException counted(ApiException refusal) {
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
     * so the transaction is rolled back and run again (see {@code DurableTransactions}), and then locks it. An
     * exclusive lock on the event covers every quota, one on a date the date's.
     */
    public void requireLocked(Collection<LockTarget> neededNow, AdvisoryLocks.Held held) {
        if (!held.coversAll(neededNow)) {
            throw new InventoryChanged();
        }
    }

    /**
     * An event becomes a series only while no position of no date is held or sold (contract section 10), and its first
     * date takes the event's lock exclusively. A flow that read its items before that date and counts after it would
     * write a position of no date into a series: the quotas counted under the locks say whether the event has dates,
     * and where that is not what its items said, the transaction runs again and is judged as the series it now is.
     */
    static void requireSameDates(Map<Long, ItemForSale> items, List<CountedQuota> counted) {
        boolean dated = items.values().stream().anyMatch(ItemForSale::eventDated);
        if (counted.stream().anyMatch(quota -> quota.dated() != dated)) {
            throw new InventoryChanged();
        }
    }

    static Set<Long> ids(List<Claim> claims, Function<Claim, Long> id) {
        return claims.stream().map(id).filter(Objects::nonNull).collect(Collectors.toCollection(TreeSet::new));
    }
}

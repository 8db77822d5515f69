package io.ticketing.reservations.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.Membership;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.InventoryChanged;

/**
 * Several requests' claims decided in one durable transaction: one round trip of reads before the locks, one
 * lock call on the union of what they consume (section 2's rules apply to the union), one round trip that
 * counts; then each request in arrival order against what is left after those before it. A request that does
 * not fit is refused alone and never refuses another. Add-only: no claimant re-checks positions of its own. Each
 * claim brings what its item bundles ({@link #claimsOf}).
 */
public final class Together {

    private final Reservations engine;

    private final long eventId;
    private final List<Reservations.Claimant> claimants;
    private final List<Change> expanded = new ArrayList<>();
    private ReservationReads.Before read;

    Together(Reservations engine, long eventId, List<Reservations.Claimant> claimants) {
        this.engine = engine;
        this.eventId = eventId;
        this.claimants = claimants;
    }

    /** Queues the reads that decide the locks: every claimant's items, the quotas they are in, their dates. */
    public void readBeforeLocks(Jdbc.RoundTrip reads) {
        List<Claim> all = claimants.stream().flatMap(claimant -> claimant.claims().stream()).toList();
        read = engine.reads.before(eventId, Reservations.ids(all, Claim::itemId), ReservationChecks.datesNamed(all),
                reads);
    }

    /** The claims of claimant {@code i} as they are to be written: each followed by what its item bundles. */
    public List<Claim> claimsOf(int i) {
        return expanded.get(i).claims();
    }

    /**
     * Locks, counts and decides. {@code holders} and {@code refusals} have one entry per claimant: its buyer and
     * channel, and its refusal if it is refused already (its cart is gone). Returns every claimant's refusal, null
     * for those whose claims fit and are to be written: {@link InventoryChanged} for one whose seat moved to another
     * item since it was read, which must run again alone.
     */
    public List<ApiException> decide(List<Holder> holders, List<ApiException> refusals) {
        List<String> buyers = holders.stream().map(Holder::buyer).toList();
        List<ApiException> outcome = new ArrayList<>(refusals);
        Map<Long, ItemForSale> itemsById = read.items();
        List<Membership> membershipsBefore = read.memberships();
        Map<Long, Boolean> dates = read.dates();
        Instant now = engine.deadlines.now();
        Set<LockTarget> locked = new HashSet<>();
        boolean[] limited = new boolean[claimants.size()];
        for (int i = 0; i < claimants.size(); i++) {
            Reservations.Claimant claimant = claimants.get(i);
            Change change = Change.adding(ReservationChecks.withBundles(claimant.claims(), itemsById, Map.of()),
                    claimant.seats(), claimant.vouchers());
            expanded.add(change);
            if (outcome.get(i) != null) {
                continue;
            }
            try {
                ClaimRules.checkRules(change, itemsById, membershipsBefore, dates, holders.get(i).channel(), now);
                limited[i] = ReservationChecks.checkBuyerKnown(change.claims(), itemsById, buyers.get(i));
            } catch (ApiException refused) {
                outcome.set(i, engine.counted(refused));
                continue;
            }
            locked.addAll(ReservationChecks.objectsToLock(change, itemsById, membershipsBefore, now));
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
        Map<Long, Seat> allSeats = new HashMap<>();
        open.forEach(i -> {
            allVouchers.putAll(claimants.get(i).vouchers());
            allSeats.putAll(claimants.get(i).seats());
        });
        List<Claim> allClaims = open.stream().flatMap(i -> expanded.get(i).claims().stream()).toList();

        Jdbc.RoundTrip afterLocks = engine.jdbc.roundTrip();
        Jdbc.Rows<CountedQuota> quotas = afterLocks.add(engine.counter.ofItemsQuery(itemsById.keySet(),
                ReservationChecks.datesCounted(allClaims, itemsById), List.of()));
        List<Seat> seatsRead = new ArrayList<>();
        Map<Integer, Set<Long>> seatsOf = new HashMap<>();
        Map<Integer, Set<Long>> vouchersOf = new HashMap<>();
        for (int i : open) {
            List<Claim> claims = expanded.get(i).claims();
            Set<Long> seatIds = new TreeSet<>();
            claims.forEach(claim -> seatIds.addAll(ReservationChecks.seatIds(claim, itemsById,
                    claimants.get(i).seats())));
            seatsOf.put(i, seatIds);
            vouchersOf.put(i, Reservations.ids(claims, Claim::voucherId));
            seatIds.forEach(seat -> seatsRead.add(claimants.get(i).seats().get(seat)));
        }
        Jdbc.Rows<ReservationReads.TakenSeat> takenSeats = seatsRead.isEmpty()
                ? null
                : afterLocks.add(engine.reads.takenSeatsOfBatch(seatsOf, vouchersOf));
        Jdbc.Rows<ReservationReads.MovedSeat> movedSeats = seatsRead.isEmpty()
                ? null
                : afterLocks.add(engine.reads.movedSeats(seatsRead));
        Set<Long> voucherIds = Reservations.ids(allClaims, Claim::voucherId);
        Jdbc.Rows<long[]> usesLeft = voucherIds.isEmpty()
                ? null
                : afterLocks.add(engine.reads.voucherUsesLeft(voucherIds, List.of()));
        Map<String, Jdbc.Rows<long[]>> heldByBuyer = new HashMap<>();
        for (int i : open) {
            if (limited[i]) {
                heldByBuyer.computeIfAbsent(buyers.get(i),
                        buyer -> afterLocks.add(engine.reads.buyerHoldings(eventId, buyer, List.of())));
            }
        }
        engine.checkpoints.beforeLocks(eventId, open.size());
        AdvisoryLocks.Held held = engine.locks.lockObjectsThen(eventId, ReservationChecks.datesNamed(allClaims), locked,
                afterLocks);
        engine.requireLocked(ReservationChecks.objectsToLock(Change.adding(allClaims, allSeats, allVouchers),
                itemsById, quotas.all(), now), held);
        Reservations.requireSameDates(itemsById, quotas.all());

        // What the claimants decided so far take, counted against the next ones.
        Map<Long, Map<String, Long>> quotaTaken = new HashMap<>();
        Set<Long> seatsTaken = new HashSet<>();
        Map<Long, Long> voucherUsesTaken = new HashMap<>();
        Map<String, Map<Long, Long>> buyerTaken = new HashMap<>();
        Map<Long, Long> usesLeftCounted = new HashMap<>();
        if (usesLeft != null) {
            usesLeft.all().forEach(row -> usesLeftCounted.put(row[0], row[1]));
        }
        for (int i : open) {
            Reservations.Claimant claimant = claimants.get(i);
            Change change = expanded.get(i);
            try {
                ReservationReads.requireUnmoved(movedSeats == null ? List.of() : movedSeats.all(),
                        seatsOf.get(i).stream().map(claimant.seats()::get).toList());
                Long takenSeat = seatsOf.get(i).stream().filter(seatsTaken::contains).findFirst()
                        .orElse(takenSeats == null
                                ? null
                                : takenSeats.all().stream()
                                        .filter(seat -> seat.claimant() == i).map(ReservationReads.TakenSeat::seatId)
                                        .findFirst().orElse(null));
                Map<Long, Long> usesLeftNow = new HashMap<>(usesLeftCounted);
                voucherUsesTaken.forEach((voucher, uses) -> usesLeftNow.merge(voucher, -uses, Long::sum));
                Map<Long, Long> heldOfBuyer = limited[i]
                        ? new HashMap<>(buyerTaken.getOrDefault(buyers.get(i), Map.of()))
                        : null;
                if (heldOfBuyer != null) {
                    ReservationChecks.Left.byId(heldByBuyer.get(buyers.get(i)).all())
                            .forEach((item, count) -> heldOfBuyer.merge(item, count, Long::sum));
                }
                ReservationChecks.checkFits(change, itemsById,
                        new ReservationChecks.Left(quotas.all().stream()
                                .map(quota -> quota.holdingMore(quotaTaken.getOrDefault(quota.id(), Map.of())))
                                .toList(),
                                takenSeat, usesLeftNow, heldOfBuyer),
                        holders.get(i).channel(), now, held);
            } catch (ReservationConflict refused) {
                outcome.set(i, engine.counted(refused));
                continue;
            } catch (InventoryChanged staleSeat) {
                // Its seats were read before the batch: only this request, read again alone, can judge them.
                outcome.set(i, staleSeat);
                continue;
            }
            for (Claim claim : change.claims()) {
                ClaimQuotas.quotasGrownBy(claim, itemsById, claimant.vouchers(), quotas.all(), now)
                        .forEach(quota -> quotaTaken.computeIfAbsent(quota.id(), id -> new HashMap<>())
                                .merge(holders.get(i).channel(), 1L, Long::sum));
                if (claim.voucherId() != null) {
                    voucherUsesTaken.merge(claim.voucherId(), 1L, Long::sum);
                }
                if (limited[i] && claim.bundledIn() == null) {
                    buyerTaken.computeIfAbsent(buyers.get(i), buyer -> new HashMap<>())
                            .merge(claim.itemId(), 1L, Long::sum);
                }
            }
            seatsTaken.addAll(seatsOf.get(i));
        }
        engine.checkpoints.afterChecks(eventId, open.size());
        return outcome;
    }
}

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
import java.util.stream.Stream;

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
import io.ticketing.reservations.problem.NotFoundException;

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
     * {@code ownPositions} are cart positions being re-checked: they do not count against themselves, and bring no
     * bundle again. {@code buyer} is the cart's or order's buyer, or null.
     */
    public void reserve(long eventId, String buyer, List<Claim> claims, Collection<Long> ownPositions) {
        readThenReserve(withEntities(eventId, claims, ownPositions, claims.size()), buyer, null);
    }

    /**
     * For a flow that learns what it takes only by reading under the lock (best available seats, contract section
     * 8): locks {@code date} of the event exclusively (the event when null) with {@code read}, and the objects of the
     * whole event that the item's claims on that date would take; lets {@code choose} turn its rows into claims (or
     * throw a refusal), checks them as {@link #reserve} does without locking again, and sends {@code write}, whose
     * rows it returns. Nothing else can consume the date's inventory until the commit: best available on one date
     * never waits for another's (contract section 10).
     */
    public <R, T> List<T> reserveChosen(long eventId, Long date, long itemId, String buyer, Jdbc.Query<R> read,
            Function<List<R>, List<Claim>> choose, Function<List<Claim>, Jdbc.Query<T>> write) {
        Jdbc.RoundTrip withLock = jdbc.roundTrip();
        Jdbc.Rows<R> rows = withLock.add(read);
        AdvisoryLocks.Held held;
        if (date == null) {
            checkpoints.beforeLocks(eventId, 1);
            held = locks.lockEventThen(eventId, withLock);
        } else {
            Reservation probe = new Reservation(eventId, List.of(Claim.of(itemId, null, null, date)), List.of(),
                    List.of(), List.of(), Map.of(), Map.of(), 0, null);
            Jdbc.RoundTrip reads = jdbc.roundTrip();
            probe.readBeforeLocks(reads);
            reads.send();
            Set<LockTarget> outside = countingRefusals(() -> probe.objectsOutside(date, buyer));
            checkpoints.beforeLocks(eventId, 1);
            held = locks.lockDateThen(eventId, date, outside, withLock);
        }
        List<Claim> claims = countingRefusals(() -> choose.apply(rows.all()));
        Reservation chosen = withEntities(eventId, claims, List.of(), 0, held);
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        chosen.readBeforeLocks(reads);
        reads.send();
        return chosen.reserveThen(buyer, write);
    }

    /**
     * {@link #reserve} in steps, for a flow with reads of its own to send in the same round trip as the
     * reservation's: send {@link Reservation#readBeforeLocks} with them, then call {@link Reservation#reserveThen}
     * once. The claims are new positions: each brings what its item bundles.
     */
    public Reservation prepare(long eventId, List<Claim> claims, Map<Long, Seat> seats, Map<Long, Voucher> vouchers) {
        return new Reservation(eventId, claims, List.of(), List.of(), List.of(), seats, vouchers, 0, null);
    }

    /**
     * An order change's reservation (contract section 9): {@code freeing} removes, after the locks and before the
     * count, the positions the change changes ({@code changedFrom}, whose voucher uses stay redeemed) and those it
     * cancels ({@code canceled}, whose uses it gives back); the change writes {@code changed} (the positions as they become)
     * and {@code added} (new ones). Each written position brings what its item bundles: a position changed into a
     * bundle as an added one does. It locks only what the change consumes more of (the quotas whose usage grows net,
     * the seats it does not take back, the vouchers it uses more often) and checks what it writes against what is
     * left once the freed positions are gone, each freed voucher use counted once. {@code write} gets the claims to
     * write, {@code changed} first, and its rows are returned.
     */
    public <T> List<T> reserveChange(long eventId, String buyer, List<Claim> changed, List<Claim> added,
            List<Claim> changedFrom, List<Claim> canceled, List<Jdbc.Statement> freeing,
            Function<List<Claim>, Jdbc.Query<T>> write) {
        List<Claim> claims = new ArrayList<>(changed);
        claims.addAll(added);
        List<Claim> freed = new ArrayList<>(changedFrom);
        freed.addAll(canceled);
        List<Claim> all = new ArrayList<>(claims);
        all.addAll(freed);
        Map<Long, Voucher> vouchers = EventOwnedEntity.byIds(Voucher.class, eventId, ids(all, Claim::voucherId));
        Reservation change = new Reservation(eventId, claims, freed, changedFrom, List.of(), seatsOf(eventId, claims),
                vouchers, 0, null);
        change.freeing.addAll(freeing);
        return readThenReserve(change, buyer, write);
    }

    /** A reservation with the claims' seats (a pass's on every date) and vouchers read by id. */
    private Reservation withEntities(long eventId, List<Claim> claims, Collection<Long> ownPositions, int firstNew) {
        return withEntities(eventId, claims, ownPositions, firstNew, null);
    }

    private Reservation withEntities(long eventId, List<Claim> claims, Collection<Long> ownPositions, int firstNew,
            AdvisoryLocks.Held held) {
        return new Reservation(eventId, claims, List.of(), List.of(), ownPositions, seatsOf(eventId, claims),
                EventOwnedEntity.byIds(Voucher.class, eventId, ids(claims, Claim::voucherId)), firstNew, held);
    }

    /** The seats the claims name, by id: each claim's seat, and a pass's seat guid on every date. */
    private static Map<Long, Seat> seatsOf(long eventId, List<Claim> claims) {
        Map<Long, Seat> seats = new HashMap<>(EventOwnedEntity.byIds(Seat.class, eventId, ids(claims, Claim::seatId)));
        List<String> passGuids = claims.stream().map(Claim::passSeatGuid).filter(Objects::nonNull).distinct().toList();
        Seat.listByGuids(eventId, passGuids).forEach(seat -> seats.put(seat.id, seat));
        return seats;
    }

    /** The reads that decide the locks, in a round trip of their own, then the reservation. */
    private <T> List<T> readThenReserve(Reservation reservation, String buyer,
            Function<List<Claim>, Jdbc.Query<T>> write) {
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        reservation.readBeforeLocks(reads);
        reads.send();
        return reservation.reserveThen(buyer, write);
    }

    /** What deciding the locks reads: the claims' items (and what they bundle), their quotas, the dates they name. */
    private final class Reads {

        private final Jdbc.Rows<ItemForSale> items;
        private final Jdbc.Rows<Membership> memberships;
        private final Jdbc.Rows<Map.Entry<Long, Boolean>> dates;

        Reads(long eventId, Set<Long> itemIds, Set<Long> namedDates, Jdbc.RoundTrip reads) {
            items = reads.add(counter.itemsForSale(eventId, itemIds));
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

    /** Claims whose items and quotas are being read, before the locks. */
    public final class Reservation {

        private final long eventId;
        private final List<Claim> claims;
        /** What the flow removed in its transaction before it counts (an order change's old positions). */
        private final List<Claim> freed;
        /** Of {@link #freed}, the positions whose voucher uses stay redeemed: rewritten, they use them again. */
        private final List<Claim> usesKept;
        /** What frees {@link #freed}: sent after the locks, before the count sees what is left. */
        private final List<Jdbc.Statement> freeing = new ArrayList<>();
        private final Collection<Long> ownPositions;
        private final Map<Long, Seat> seats;
        private final Map<Long, Voucher> vouchers;
        /** The claims from this index on are new positions: they bring what their items bundle. */
        private final int firstNew;
        /** What the caller holds already ({@link #reserveChosen}), or null: this reservation locks. */
        private final AdvisoryLocks.Held held;
        private Reads read;

        private Reservation(long eventId, List<Claim> claims, List<Claim> freed, List<Claim> usesKept,
                Collection<Long> ownPositions, Map<Long, Seat> seats, Map<Long, Voucher> vouchers, int firstNew,
                AdvisoryLocks.Held held) {
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
                Set<Long> itemIds = ids(claims, Claim::itemId);
                itemIds.addAll(ids(freed, Claim::itemId));
                read = new Reads(eventId, itemIds, ReservationChecks.datesNamed(claims), reads);
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
        private Set<LockTarget> objectsOutside(long date, String buyer) {
            Map<Long, ItemForSale> items = read.items();
            List<Membership> memberships = read.memberships();
            Instant now = deadlines.now();
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
            expanded(items).forEach(claim -> ReservationChecks.quotasGrownBy(claim, items, vouchers, memberships, now)
                    .stream().filter(quota -> quota.dateId() == null)
                    .forEach(quota -> outside.add(quota.lockTarget())));
            if (ReservationChecks.checkBuyerKnown(claims, items, buyer)) {
                outside.add(LockTarget.buyer(eventId, buyer));
            }
            return outside;
        }

        /**
         * Locks what the claims of {@code buyer} (or null) consume and sends with the locks, in one round trip, what
         * the checks read and then the query {@code write} makes of the claims as they will be written (when not
         * null), whose rows it returns. The checks run when the rows are back; if one fails, it throws and the
         * transaction rolls back, the write with it. So the lock holder waits for the service only before its commit.
         * The write runs after the checks' reads, which therefore do not see it.
         */
        public <T> List<T> reserveThen(String buyer, Function<List<Claim>, Jdbc.Query<T>> write) {
            if (claims.isEmpty()) {
                Jdbc.RoundTrip freeingOnly = jdbc.roundTrip();
                freeing.forEach(freeingOnly::add);
                Jdbc.Rows<T> written = write == null ? null : freeingOnly.add(write.apply(claims));
                freeingOnly.send();
                return written == null ? List.of() : written.all();
            }
            return countingRefusals(() -> {
                Map<Long, ItemForSale> itemsById = read.items();
                List<Membership> membershipsBefore = read.memberships();
                Instant now = deadlines.now();
                List<Claim> toWrite = expanded(itemsById);
                ReservationChecks.checkRules(toWrite, itemsById, seats, vouchers, membershipsBefore, read.dates(), now);

                boolean limited = ReservationChecks.checkBuyerKnown(toWrite, itemsById, buyer);
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
                Jdbc.RoundTrip afterLocks = jdbc.roundTrip();
                freeing.forEach(afterLocks::add);
                Jdbc.Rows<CountedQuota> quotas = afterLocks.add(counter.ofItemsQuery(itemsById.keySet(),
                        ReservationChecks.datesCounted(Stream.concat(toWrite.stream(), freed.stream()).toList(),
                                itemsById),
                        ownPositions));
                Jdbc.Rows<Long> takenSeats = seatIds.isEmpty()
                        ? null
                        : afterLocks.add(takenSeats(seatIds, ownPositions, ids(toWrite, Claim::voucherId)));
                Jdbc.Rows<long[]> usesLeft = voucherUses.isEmpty()
                        ? null
                        : afterLocks.add(voucherUsesLeft(voucherUses.keySet(), ownPositions));
                Jdbc.Rows<long[]> heldByBuyer = limited
                        ? afterLocks.add(buyerHoldings(eventId, buyer, ownPositions))
                        : null;
                Jdbc.Rows<T> written = write == null ? null : afterLocks.add(write.apply(toWrite));
                AdvisoryLocks.Held holding;
                if (held != null) {
                    holding = held;
                    afterLocks.send();
                } else {
                    checkpoints.beforeLocks(eventId, 1);
                    holding = locks.lockObjectsThen(eventId, ReservationChecks.datesNamed(toWrite), locked,
                            afterLocks);
                }

                requireLocked(ReservationChecks.objectsToLock(toWrite, freed, usesKept, itemsById, seats, vouchers,
                        quotas.all(),
                        now), holding);
                try {
                    ReservationChecks.checkQuotas(toWrite, itemsById, vouchers, quotas.all(), now, holding);
                    if (takenSeats != null) {
                        takenSeats.first().ifPresent(taken -> {
                            throw ReservationConflict.seatUnavailable(seats.get(taken));
                        });
                    }
                    if (usesLeft != null) {
                        ReservationChecks.checkVouchers(voucherUses, vouchers, usesLeft.all());
                    }
                    if (heldByBuyer != null) {
                        ReservationChecks.checkBuyerLimits(toWrite, itemsById, heldByBuyer.all());
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
     * not fit is refused alone and never refuses another. Add-only: no claimant re-checks positions of its own. Each
     * claim brings what its item bundles ({@link #claimsOf}).
     */
    public final class Together {

        private final long eventId;
        private final List<Claimant> claimants;
        private final List<List<Claim>> expanded = new ArrayList<>();
        private Reads read;

        private Together(long eventId, List<Claimant> claimants) {
            this.eventId = eventId;
            this.claimants = claimants;
        }

        /** Queues the reads that decide the locks: every claimant's items, the quotas they are in, their dates. */
        public void readBeforeLocks(Jdbc.RoundTrip reads) {
            List<Claim> all = claimants.stream().flatMap(claimant -> claimant.claims().stream()).toList();
            read = new Reads(eventId, ids(all, Claim::itemId), ReservationChecks.datesNamed(all), reads);
        }

        /** The claims of claimant {@code i} as they are to be written: each followed by what its item bundles. */
        public List<Claim> claimsOf(int i) {
            return expanded.get(i);
        }

        /**
         * Locks, counts and decides. {@code buyers} and {@code refusals} have one entry per claimant: its buyer (or
         * null), and its refusal if it is refused already (its cart is gone). Returns every claimant's refusal, null
         * for those whose claims fit and are to be written.
         */
        public List<ApiException> decide(List<String> buyers, List<ApiException> refusals) {
            List<ApiException> outcome = new ArrayList<>(refusals);
            Map<Long, ItemForSale> itemsById = read.items();
            List<Membership> membershipsBefore = read.memberships();
            Map<Long, Boolean> dates = read.dates();
            Instant now = deadlines.now();
            Set<LockTarget> locked = new HashSet<>();
            boolean[] limited = new boolean[claimants.size()];
            for (int i = 0; i < claimants.size(); i++) {
                Claimant claimant = claimants.get(i);
                List<Claim> claims = ReservationChecks.withBundles(claimant.claims(), itemsById);
                expanded.add(claims);
                if (outcome.get(i) != null) {
                    continue;
                }
                try {
                    ReservationChecks.checkRules(claims, itemsById, claimant.seats(), claimant.vouchers(),
                            membershipsBefore, dates, now);
                    limited[i] = ReservationChecks.checkBuyerKnown(claims, itemsById, buyers.get(i));
                } catch (ApiException refused) {
                    outcome.set(i, counted(refused));
                    continue;
                }
                locked.addAll(ReservationChecks.objectsToLock(claims, List.of(), List.of(), itemsById, claimant.seats(),
                        claimant.vouchers(), membershipsBefore, now));
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
            List<Claim> allClaims = open.stream().flatMap(i -> expanded.get(i).stream()).toList();

            Jdbc.RoundTrip afterLocks = jdbc.roundTrip();
            Jdbc.Rows<CountedQuota> quotas = afterLocks.add(counter.ofItemsQuery(itemsById.keySet(),
                    ReservationChecks.datesCounted(allClaims, itemsById), List.of()));
            Map<Integer, Jdbc.Rows<Long>> takenSeats = new HashMap<>();
            Map<Integer, Set<Long>> seatsOf = new HashMap<>();
            for (int i : open) {
                List<Claim> claims = expanded.get(i);
                Set<Long> seatIds = new TreeSet<>();
                claims.forEach(claim -> seatIds.addAll(ReservationChecks.seatIds(claim, itemsById,
                        claimants.get(i).seats())));
                seatsOf.put(i, seatIds);
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
            AdvisoryLocks.Held held = locks.lockObjectsThen(eventId, ReservationChecks.datesNamed(allClaims), locked,
                    afterLocks);
            requireLocked(
                    ReservationChecks.objectsToLock(allClaims, List.of(), List.of(), itemsById, allSeats, allVouchers,
                            quotas.all(), now),
                    held);

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
                List<Claim> claims = expanded.get(i);
                try {
                    ReservationChecks.checkQuotas(claims, itemsById, claimant.vouchers(), quotas.all().stream()
                            .map(quota -> quota.holdingMore(quotaTaken.getOrDefault(quota.id(), 0L))).toList(), now,
                            held);
                    for (long seat : seatsOf.get(i)) {
                        if (seatsTaken.contains(seat)) {
                            throw ReservationConflict.seatUnavailable(claimant.seats().get(seat));
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
                        Map<Long, Long> heldOfBuyer = new HashMap<>(
                                buyerTaken.getOrDefault(buyers.get(i), Map.of()));
                        heldByBuyer.get(buyers.get(i)).all()
                                .forEach(row -> heldOfBuyer.merge(row[0], row[1], Long::sum));
                        ReservationChecks.checkBuyerLimits(claims, itemsById, heldOfBuyer.entrySet().stream()
                                .map(entry -> new long[]{entry.getKey(), entry.getValue()}).toList());
                    }
                } catch (ReservationConflict refused) {
                    outcome.set(i, counted(refused));
                    continue;
                }
                for (Claim claim : claims) {
                    ReservationChecks.quotasGrownBy(claim, itemsById, claimant.vouchers(), quotas.all(), now)
                            .forEach(quota -> quotaTaken.merge(quota.id(), 1L, Long::sum));
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
     * so the transaction is rolled back and run again (see {@code DurableTransactions}), and then locks it. An
     * exclusive lock on the event covers every quota, one on a date the date's.
     */
    public void requireLocked(Collection<LockTarget> neededNow, AdvisoryLocks.Held held) {
        if (!held.coversAll(neededNow)) {
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

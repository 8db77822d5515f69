package io.ticketing.reservations.cart;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.core.Response;

import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.buyer.BuyerTokens;
import io.ticketing.reservations.cart.CartRows.Contents;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.BestSeats;
import io.ticketing.reservations.inventory.FreedCapacity;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.SeatService;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;
import io.ticketing.reservations.reservation.Claim;
import io.ticketing.reservations.reservation.ClaimBatches;
import io.ticketing.reservations.reservation.Deadlines;
import io.ticketing.reservations.reservation.PositionLabels;
import io.ticketing.reservations.reservation.Reservation;
import io.ticketing.reservations.reservation.ReservationConfig;
import io.ticketing.reservations.reservation.ReservationConflict;
import io.ticketing.reservations.reservation.Reservations;
import io.ticketing.reservations.reservation.Together;
import io.ticketing.reservations.waitingroom.WaitingRoom;

/** Carts: holds that expire on their own. Adding and reviving holds go through {@link Reservations}. */
@ApplicationScoped
public class CartService {

    private final Reservations reservations;
    private final ReservationConfig config;
    private final CartRows rows;
    private final Deadlines deadlines;
    private final SeatService seats;
    private final ClaimBatches batches;
    private final FreedCapacity freed;
    private final BuyerTokens buyers;

    CartService(Reservations reservations, ReservationConfig config, CartRows rows, Deadlines deadlines,
            SeatService seats, ClaimBatches batches, FreedCapacity freed, BuyerTokens buyers) {
        this.buyers = buyers;
        this.batches = batches;
        this.freed = freed;
        this.seats = seats;
        this.reservations = reservations;
        this.config = config;
        this.rows = rows;
        this.deadlines = deadlines;
    }

    /**
     * A new empty cart of the buyer {@code buyerToken} vouches for, or an admin token names as {@code buyer} (or
     * none), opened with {@code admission}: one cart a ticket, else 403 {@code admission_required}.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Contents create(WaitingRoom.Admission admission, String buyer, String buyerToken) {
        Event event = admission.event();
        String id = RandomIds.next();
        Instant expires = deadlines.inSeconds(event.cartTtlSeconds);
        String vouched = buyers.buyer(event, buyer, buyerToken);
        Cart cart = admission.ticket() == null
                ? rows.insert(id, event.id, expires, vouched)
                : rows.insertAdmitted(id, event.id, expires, vouched, admission.ticket())
                        .orElseThrow(() -> WaitingRoom.admissionRequired(event));
        return new Contents(cart, List.of());
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Contents get(Event event, String cartId) {
        return rows.read(event.id, cartId).orElseThrow(() -> new NotFoundException("cart", cartId));
    }

    /** The cart with its positions, its row locked for this transaction (see {@link CartRows#lock}). */
    public Contents lock(Event event, String cartId) {
        return rows.lock(event.id, cartId).orElseThrow(() -> new NotFoundException("cart", cartId));
    }

    /**
     * All or nothing: every new position fits, under the locks, or none is added. Decided together with the other
     * adds of the event waiting for its locks ({@link ClaimBatches}) unless combining is off; {@code answer} is what
     * the request answers with the cart, which a batch records for its {@code Idempotency-Key}.
     */
    public Response add(Event event, String cartId, List<CartRequests.NewPosition> positions,
            Function<Contents, Response> answer) {
        requireWithinPositionLimit(positions.stream().mapToInt(CartRequests.NewPosition::count).sum());
        Adding adding = new Adding(cartId, wanted(event, positions));
        return batches.submit(event.id, "add", cartId, adding, answer, batch -> addTogether(event, batch),
                () -> addAlone(event, cartId, positions));
    }

    /** More positions in one request than {@code reservation.max-positions}: 413, before anything is read or locked. */
    private void requireWithinPositionLimit(int count) {
        if (count > config.maxPositions()) {
            throw new ApiException(413, "too_many_positions", "Content Too Large",
                    count + " positions in one request; at most " + config.maxPositions() + " are allowed.");
        }
    }

    /** One add to cart in a durable transaction of its own. */
    @DurableTransaction
    Contents addAlone(Event event, String cartId, List<CartRequests.NewPosition> positions) {
        Instant expires = deadlines.inSeconds(event.cartTtlSeconds);
        Wanted wanted = claimsFor(event, positions);
        List<Claim> claims = wanted.claims();
        // Three round trips: the cart locked with its new deadline, its positions for the answer, and what deciding
        // the locks needs; then the locks, the counts and the insert; then the commit. Nothing is read after it.
        Reservation reservation = reservations.prepare(event.id, claims, wanted.seats(),
                wanted.vouchers());
        Contents cart = rows.lockExtending(event.id, cartId, expires, reservation::readBeforeLocks)
                .orElseThrow(() -> new NotFoundException("cart", cartId));
        List<CartPosition> added = reservation.reserveThen(cart.cart().buyer(),
                written -> rows.insertAll(cartId, written, expires))
                .stream()
                .sorted(Comparator.comparing(CartPosition::id)).toList();
        return new Contents(cart.cart(), Stream.concat(cart.positions().stream(), added.stream()).toList());
    }

    /** One request of a batch: its cart and what it claims. */
    record Adding(String cartId, Wanted wanted) {
    }

    /**
     * The adds of a batch, in its durable transaction, in three round trips: the carts locked and what deciding the
     * locks needs; the locks and the counts; the insert of every add that fits, whose carts alone get the new
     * deadline (an add refused changes nothing, in a batch as alone). A request whose cart was not locked (not found,
     * or held by another transaction) runs alone after the batch.
     */
    List<ClaimBatches.Outcome<Contents>> addTogether(Event event, List<Adding> batch) {
        Instant expires = deadlines.inSeconds(event.cartTtlSeconds);
        Together together = reservations.prepareTogether(event.id, batch.stream()
                .map(adding -> new Reservations.Claimant(adding.wanted().claims(), adding.wanted().seats(),
                        adding.wanted().vouchers()))
                .toList());
        Map<String, Contents> carts = rows.lockEach(event.id, batch.stream().map(Adding::cartId).toList(),
                together::readBeforeLocks);
        List<String> buyers = new ArrayList<>();
        List<ApiException> refusals = new ArrayList<>();
        for (Adding adding : batch) {
            Contents cart = carts.get(adding.cartId());
            buyers.add(cart == null ? null : cart.cart().buyer());
            // Not found, or held by another transaction: decided alone after the batch, by the request's own wait.
            refusals.add(cart == null ? new NotFoundException("cart", adding.cartId()) : null);
        }
        List<ApiException> decided = together.decide(buyers, refusals);
        List<String> cartIds = new ArrayList<>();
        List<Claim> claims = new ArrayList<>();
        Map<Integer, Integer> written = new HashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            if (decided.get(i) == null) {
                List<Claim> ofRequest = together.claimsOf(i);
                written.put(i, ofRequest.size());
                int first = claims.size();
                for (Claim claim : ofRequest) {
                    cartIds.add(batch.get(i).cartId());
                    claims.add(claim.bundledIn() == null
                            ? claim
                            : new Claim(claim.itemId(), null, null, claim.dateId(), null, claim.bundledIn() + first));
                }
            }
        }
        CartRows.Extended extended = claims.isEmpty()
                ? new CartRows.Extended(List.of(), Map.of())
                : rows.insertEachExtending(cartIds, claims, expires);
        Iterator<CartRows.Placed> placed = extended.positions().iterator();
        // Two requests on one cart in a batch: the later answer shows what the earlier added, as one after the other.
        Map<String, List<CartPosition>> positions = new HashMap<>();
        carts.forEach((id, cart) -> positions.put(id, new ArrayList<>(cart.positions())));
        List<ClaimBatches.Outcome<Contents>> outcomes = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Adding adding = batch.get(i);
            if (!carts.containsKey(adding.cartId())) {
                outcomes.add(null);
                continue;
            }
            if (decided.get(i) != null) {
                outcomes.add(ClaimBatches.Outcome.refused(decided.get(i)));
                continue;
            }
            List<CartPosition> ofCart = positions.get(adding.cartId());
            for (int n = 0; n < written.get(i); n++) {
                ofCart.add(placed.next().position());
            }
            outcomes.add(
                    ClaimBatches.Outcome.of(new Contents(extended.carts().get(adding.cartId()), List.copyOf(ofCart))));
        }
        return outcomes;
    }

    /**
     * The best free seats (see {@link BestSeats}), chosen and held under the event's exclusive lock: which seats a
     * request takes is known only once they are read, so nothing else may take seats of the event meanwhile.
     */
    @DurableTransaction
    public Contents addBestAvailable(Event event, String cartId, CartRequests.BestAvailable request) {
        requireWithinPositionLimit(request.quantity());
        Instant expires = deadlines.inSeconds(event.cartTtlSeconds);
        Contents cart = rows.lockExtending(event.id, cartId, expires, reads -> {
        }).orElseThrow(() -> new NotFoundException("cart", cartId));
        long itemId = request.itemId();
        Long dateId = request.dateId();
        List<CartPosition> added = reservations.reserveChosen(event.id, dateId, itemId, cart.cart().buyer(),
                seats.freeSeats(event, itemId, request.section(), dateId),
                free -> BestSeats.choose(free, request.quantity())
                        .orElseThrow(() -> ReservationConflict.noSeatsLeft(itemId, request.quantity(), free.size()))
                        .stream().map(seat -> Claim.of(itemId, seat.id(), null, dateId)).toList(),
                claims -> rows.insertAll(cartId, claims, expires));
        return new Contents(cart.cart(), Stream.concat(cart.positions().stream(),
                added.stream().sorted(Comparator.comparing(CartPosition::id))).toList());
    }

    /**
     * Holds far from their deadline are extended as they are; the others are re-checked, all or nothing. No hold
     * is pushed past its creation plus {@code reservation.max-hold}: that is 409 {@code hold_limit}, before any lock.
     */
    @DurableTransaction
    public Contents extend(Event event, String cartId) {
        Contents cart = lock(event, cartId);
        Instant expires = deadlines.inSeconds(event.cartTtlSeconds);
        for (CartPosition position : cart.positions()) {
            Instant holdableUntil = position.createdAt().plus(config.maxHold());
            if (expires.isAfter(holdableUntil)) {
                throw ReservationConflict.holdLimit(position.id(), holdableUntil);
            }
        }
        reviveStale(event, cart);
        rows.extend(cartId, expires);
        return new Contents(new Cart(cartId, event.id, cart.cart().createdAt(), expires, cart.cart().buyer()),
                cart.positions().stream().map(p -> p.extendedTo(expires)).toList());
    }

    /**
     * Re-checks, under the locks, the positions that expired or are about to: someone else may have their
     * capacity now. Call once, in the caller's durable transaction; it fails if any no longer fits.
     */
    public void reviveStale(Event event, Contents cart) {
        Instant now = deadlines.now();
        List<CartPosition> stale = cart.positions().stream()
                .filter(position -> config.needsRecheck(position.expires(), now)).toList();
        reservations.reserve(event.id, cart.cart().buyer(), stale.stream().map(CartPosition::claim).toList(),
                stale.stream().map(CartPosition::id).toList());
    }

    /**
     * Removing frees the capacity at once; it takes no lock. A bundle's position goes with what it brought, in the
     * same statement; what a bundle brought cannot leave alone (contract section 10).
     */
    @Transactional
    public void removePosition(Event event, String cartId, long positionId) {
        Contents cart = lock(event, cartId);
        CartPosition position = cart.positions().stream().filter(p -> p.id() == positionId).findFirst()
                .orElseThrow(() -> new NotFoundException("cart position", positionId));
        if (position.bundledIn() != null) {
            throw ReservationConflict.bundled(positionId, position.bundledIn());
        }
        rows.deletePosition(cartId, positionId);
        freed.of(event);
    }

    @Transactional
    public void delete(Event event, String cartId) {
        lock(event, cartId);
        rows.delete(cartId);
        freed.of(event);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public CartView view(Contents contents) {
        List<CartPosition> positions = contents.positions();
        PositionLabels labels = PositionLabels.of(positions);
        return new CartView(contents.cart().id(), contents.cart().buyer(), contents.cart().expires(),
                labels.total().toPlainString(),
                positions.stream().map(p -> new CartView.Position(p.id(), p.itemId(), labels.seatGuid(p),
                        labels.voucherCode(p), p.price().toPlainString(), p.expires(), p.dateId(), p.bundledIn()))
                        .toList());
    }

    /** The claims of a request, with the seats and vouchers they name, by id. */
    record Wanted(List<Claim> claims, Map<Long, Seat> seats, Map<Long, Voucher> vouchers) {
    }

    /** {@link #claimsFor} before the request's batch, reading seats and vouchers unlocked, as the batch would. */
    @Transactional(Transactional.TxType.SUPPORTS)
    Wanted wanted(Event event, List<CartRequests.NewPosition> positions) {
        return claimsFor(event, positions);
    }

    /**
     * One claim per ticket: seat guids (on the position's date) and voucher codes become ids, quantities become
     * copies. A seat guid without a date that only dated seats have is a pass's, held on every date (contract section
     * 10): all those seats come with the claims, for the checks.
     */
    private static Wanted claimsFor(Event event, List<CartRequests.NewPosition> positions) {
        List<Seat> seatsNamed = Seat.listByGuids(event.id,
                positions.stream().map(CartRequests.NewPosition::seatGuid).filter(Objects::nonNull).toList());
        Map<String, Voucher> vouchers = Voucher.byCodes(event.id,
                positions.stream().map(CartRequests.NewPosition::voucherCode).filter(Objects::nonNull).toList());
        List<Claim> claims = new ArrayList<>();
        for (int i = 0; i < positions.size(); i++) {
            CartRequests.NewPosition position = positions.get(i);
            Long seatId = null;
            String passSeatGuid = null;
            if (position.seatGuid() != null) {
                Optional<Seat> seat = seatsNamed.stream().filter(s -> s.guid.equals(position.seatGuid())
                        && Objects.equals(s.dateId, position.dateId())).findFirst();
                if (seat.isPresent()) {
                    seatId = seat.get().id;
                } else if (position.dateId() == null
                        && seatsNamed.stream().anyMatch(s -> s.guid.equals(position.seatGuid()))) {
                    passSeatGuid = position.seatGuid();
                } else {
                    throw new NotFoundException("seat", position.seatGuid());
                }
                if (position.count() != 1) {
                    throw new ValidationException("positions[" + i + "].quantity", "must be 1 with a seat");
                }
            }
            Long voucherId = null;
            if (position.voucherCode() != null) {
                Voucher voucher = vouchers.get(position.voucherCode());
                if (voucher == null) {
                    throw ReservationConflict.voucherUnknown(position.voucherCode());
                }
                voucherId = voucher.id;
            }
            for (int copy = 0; copy < position.count(); copy++) {
                claims.add(new Claim(position.itemId(), seatId, voucherId, position.dateId(), passSeatGuid, null));
            }
        }
        return new Wanted(claims,
                seatsNamed.stream().collect(Collectors.toMap(seat -> seat.id, seat -> seat, (same, again) -> same)),
                vouchers.values().stream()
                        .collect(Collectors.toMap(voucher -> voucher.id, voucher -> voucher, (same, again) -> same)));
    }
}

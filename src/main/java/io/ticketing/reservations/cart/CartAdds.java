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

import io.ticketing.reservations.cart.CartRows.Contents;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.BestSeats;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.SeatService;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.InventoryChanged;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;
import io.ticketing.reservations.reservation.Claim;
import io.ticketing.reservations.reservation.ClaimBatches;
import io.ticketing.reservations.reservation.Deadlines;
import io.ticketing.reservations.reservation.Holder;
import io.ticketing.reservations.reservation.Reservation;
import io.ticketing.reservations.reservation.ReservationConfig;
import io.ticketing.reservations.reservation.ReservationConflict;
import io.ticketing.reservations.reservation.Reservations;
import io.ticketing.reservations.reservation.Together;

/**
 * Adding to a cart (contract sections 3 and 8): positions named by the buyer, alone or decided together with the other
 * adds of the event waiting for its locks ({@link ClaimBatches}), and the best available seats. Every add goes
 * through {@link Reservations}; {@link CartService} has the rest of a cart's life.
 */
@ApplicationScoped
public class CartAdds {

    private final Reservations reservations;
    private final ReservationConfig config;
    private final CartRows rows;
    private final Deadlines deadlines;
    private final SeatService seats;
    private final ClaimBatches batches;
    private final CartBatchRows batchRows;

    CartAdds(Reservations reservations, ReservationConfig config, CartRows rows, Deadlines deadlines,
            SeatService seats, ClaimBatches batches, CartBatchRows batchRows) {
        this.batchRows = batchRows;
        this.reservations = reservations;
        this.config = config;
        this.rows = rows;
        this.deadlines = deadlines;
        this.seats = seats;
        this.batches = batches;
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
        List<CartPosition> added = reservation.reserveThen(cart.cart().holder(),
                written -> rows.insertAll(cartId, written, expires))
                .stream()
                .sorted(Comparator.comparing(CartPosition::id)).toList();
        return new Contents(cart.cart(), Stream.concat(cart.positions().stream(), added.stream()).toList());
    }

    /** One request of a batch: its cart and what it claims. */
    record Adding(String cartId, Wanted wanted) {
    }

    /**
     * The adds of a batch, in its durable transaction, in three round trips: the carts locked with their new deadline
     * and what deciding the locks needs; the locks and the counts; the insert of every add that fits, with the old
     * deadline given back to the carts whose adds were all refused (an add refused changes nothing, in a batch as
     * alone: {@link CartBatchRows}). A request whose cart was not locked (not found,
     * or held by another transaction), or whose seat a seating plan moved after it was read, runs alone after the
     * batch.
     */
    List<ClaimBatches.Outcome<Contents>> addTogether(Event event, List<Adding> batch) {
        Instant expires = deadlines.inSeconds(event.cartTtlSeconds);
        Together together = reservations.prepareTogether(event.id, batch.stream()
                .map(adding -> new Reservations.Claimant(adding.wanted().claims(), adding.wanted().seats(),
                        adding.wanted().vouchers()))
                .toList());
        Instant now = deadlines.now();
        CartBatchRows.Locked locked = batchRows.lockExtendingEach(event.id,
                batch.stream().map(Adding::cartId).toList(), expires, now, together::readBeforeLocks);
        Map<String, Contents> carts = locked.carts();
        List<Holder> holders = new ArrayList<>();
        List<ApiException> refusals = new ArrayList<>();
        for (Adding adding : batch) {
            Contents cart = carts.get(adding.cartId());
            holders.add(cart == null ? new Holder(null, null) : cart.cart().holder());
            // Not found, held by another transaction, or changed by one during the lock: decided alone after the batch,
            // by the request's own wait.
            refusals.add(cart == null ? new NotFoundException("cart", adding.cartId()) : null);
        }
        List<ApiException> decided = together.decide(holders, refusals);
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
        Map<String, Instant> refused = new HashMap<>(locked.deadlinesBefore());
        refused.entrySet().removeIf(cart -> !cart.getValue().isBefore(expires));
        written.keySet().forEach(i -> refused.remove(batch.get(i).cartId()));
        List<CartRows.Placed> inserted = batchRows.insertEachGivingBack(cartIds, claims, expires, refused);
        Iterator<CartRows.Placed> placed = inserted.iterator();
        // Two requests on one cart in a batch: the later answer shows what the earlier added, as one after the other.
        Map<String, List<CartPosition>> positions = new HashMap<>();
        carts.forEach((id, cart) -> positions.put(id, new ArrayList<>(cart.positions())));
        List<ClaimBatches.Outcome<Contents>> outcomes = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Adding adding = batch.get(i);
            if (!carts.containsKey(adding.cartId()) || decided.get(i) instanceof InventoryChanged) {
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
                    ClaimBatches.Outcome.of(new Contents(carts.get(adding.cartId()).cart(), List.copyOf(ofCart))));
        }
        positions.forEach((id, held) -> batchRows.remember(id, locked.revisions().get(id), held, now));
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
        List<CartPosition> added = reservations.reserveChosen(event.id, dateId, itemId, cart.cart().holder(),
                seats.freeSeats(event, itemId, request.section(), dateId, cart.cart().channel()),
                free -> BestSeats.choose(free, request.quantity())
                        .orElseThrow(() -> ReservationConflict.noSeatsLeft(itemId, request.quantity(), free.size()))
                        .stream().map(seat -> Claim.of(itemId, seat.id(), null, dateId)).toList(),
                claims -> rows.insertAll(cartId, claims, expires));
        return new Contents(cart.cart(), Stream.concat(cart.positions().stream(),
                added.stream().sorted(Comparator.comparing(CartPosition::id))).toList());
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

package io.ticketing.reservations.cart;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;
import io.ticketing.reservations.reservation.Claim;
import io.ticketing.reservations.reservation.Deadlines;
import io.ticketing.reservations.reservation.PositionLabels;
import io.ticketing.reservations.reservation.ReservationConfig;
import io.ticketing.reservations.reservation.ReservationConflict;
import io.ticketing.reservations.reservation.Reservations;

/** Carts: holds that expire on their own. Adding and reviving holds go through {@link Reservations}. */
@ApplicationScoped
public class CartService {

    /** A cart with all its positions, read under its row lock. */
    public record Contents(Cart cart, List<CartPosition> positions) {
    }

    private final Reservations reservations;
    private final ReservationConfig config;
    private final Jdbc jdbc;
    private final Deadlines deadlines;

    CartService(Reservations reservations, ReservationConfig config, Jdbc jdbc, Deadlines deadlines) {
        this.deadlines = deadlines;
        this.reservations = reservations;
        this.config = config;
        this.jdbc = jdbc;
    }

    /**
     * In auto-commit, one statement, one round trip, and the answer needs no other read; in the transaction of an
     * {@code Idempotency-Key}, with its record.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Contents create(Event event) {
        Cart cart = jdbc.statement(Cart.INSERT).set("id", RandomIds.next()).set("event", event.id)
                .set("expires", deadlines.inSeconds(event.cartTtlSeconds)).list(Cart::read).get(0);
        return new Contents(cart, List.of());
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Cart get(Event event, String cartId) {
        return Cart.findInEvent(event.id, cartId).orElseThrow(() -> new NotFoundException("cart", cartId));
    }

    /**
     * The cart, its row locked for this transaction: two requests on one cart (a double-clicked checkout)
     * run one after the other. Taken before any advisory lock, and no flow takes it after one.
     */
    public Cart lock(Event event, String cartId) {
        return Cart.<Cart>find("id = ?1 and eventId = ?2", cartId, event.id).withLock(LockModeType.PESSIMISTIC_WRITE)
                .firstResultOptional().orElseThrow(() -> new NotFoundException("cart", cartId));
    }

    /** The cart, its row locked as {@link #lock} does, with its positions, in one round trip. */
    public Contents lockWithPositions(Event event, String cartId) {
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        Jdbc.Rows<Cart> locked = reads.add(Cart.lock(jdbc, event.id, cartId));
        Jdbc.Rows<CartPosition> positions = reads.add(CartPosition.ofCart(jdbc, cartId));
        reads.send();
        return new Contents(locked.first().orElseThrow(() -> new NotFoundException("cart", cartId)), positions.all());
    }

    /** All or nothing: every new position fits, under the locks, or none is added. */
    @DurableTransaction
    public Contents add(Event event, String cartId, List<CartRequests.NewPosition> positions) {
        int count = positions.stream().mapToInt(CartRequests.NewPosition::count).sum();
        if (count > config.maxPositions()) {
            throw new ApiException(413, "too_many_positions", "Content Too Large",
                    count + " positions in one request; at most " + config.maxPositions() + " are allowed.");
        }
        Instant expires = deadlines.inSeconds(event.cartTtlSeconds);
        List<Claim> claims = claimsFor(event, positions);
        // Three round trips: the cart locked with its new deadline, its positions for the answer, and what deciding
        // the locks needs; then the locks, the counts and the insert; then the commit. Nothing is read after it.
        Jdbc.RoundTrip reads = jdbc.roundTrip();
        Jdbc.Rows<Cart> locked = reads.add(Cart.lockExtending(jdbc, event.id, cartId, expires));
        Jdbc.Rows<CartPosition> held = reads.add(CartPosition.ofCart(jdbc, cartId));
        Reservations.Reservation reservation = reservations.prepare(event.id, claims, List.of(), reads);
        reads.send();
        Cart cart = locked.first().orElseThrow(() -> new NotFoundException("cart", cartId));
        List<CartPosition> added = reservation.reserveThen(CartPosition.insertAll(jdbc, cart.id, claims, expires))
                .stream().sorted(Comparator.comparing(position -> position.id)).toList();
        return new Contents(cart, Stream.concat(held.all().stream(), added.stream()).toList());
    }

    /**
     * Holds far from their deadline are extended as they are; the others are re-checked, all or nothing. No hold
     * is pushed past its creation plus {@code reservation.max-hold}: that is 409 {@code hold_limit}, before any lock.
     */
    @DurableTransaction
    public Cart extend(Event event, String cartId) {
        Cart cart = lock(event, cartId);
        List<CartPosition> positions = cart.positions();
        Instant expires = deadlines.inSeconds(event.cartTtlSeconds);
        for (CartPosition position : positions) {
            Instant holdableUntil = position.createdAt.plus(config.maxHold());
            if (expires.isAfter(holdableUntil)) {
                throw ReservationConflict.holdLimit(position.id, holdableUntil);
            }
        }
        reviveStale(event, positions);
        // One statement for all positions: the usage counters are then updated in one ordered pass.
        CartPosition.update("expires = ?1 where cartId = ?2", expires, cart.id);
        cart.expires = expires;
        return cart;
    }

    /**
     * Re-checks, under the locks, the positions that expired or are about to: someone else may have their
     * capacity now. Call once, in the caller's durable transaction; it fails if any no longer fits.
     */
    public void reviveStale(Event event, List<CartPosition> positions) {
        Instant now = deadlines.now();
        List<CartPosition> stale = positions.stream()
                .filter(position -> config.needsRecheck(position.expires, now)).toList();
        reservations.reserve(event.id, stale.stream().map(CartPosition::claim).toList(),
                stale.stream().map(position -> position.id).toList());
    }

    /** Removing frees the capacity at once; it takes no lock. */
    @Transactional
    public void removePosition(Event event, String cartId, long positionId) {
        Cart cart = lock(event, cartId);
        if (CartPosition.delete("id = ?1 and cartId = ?2", positionId, cart.id) == 0) {
            throw new NotFoundException("cart position", positionId);
        }
    }

    @Transactional
    public void delete(Event event, String cartId) {
        lock(event, cartId).delete();
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public CartView view(Cart cart) {
        return view(cart, cart.positions());
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public CartView view(Contents contents) {
        return view(contents.cart(), contents.positions());
    }

    private static CartView view(Cart cart, List<CartPosition> positions) {
        PositionLabels labels = PositionLabels.of(positions);
        return new CartView(cart.id, cart.expires, labels.total().toPlainString(),
                positions.stream().map(p -> new CartView.Position(p.id, p.itemId, labels.seatGuid(p),
                        labels.voucherCode(p), p.price.toPlainString(), p.expires)).toList());
    }

    /** One claim per ticket: seat guids and voucher codes become ids, quantities become copies. */
    private static List<Claim> claimsFor(Event event, List<CartRequests.NewPosition> positions) {
        Map<String, Seat> seats = Seat.listByGuids(event.id,
                positions.stream().map(CartRequests.NewPosition::seatGuid).filter(Objects::nonNull).toList())
                .stream().collect(Collectors.toMap(seat -> seat.guid, seat -> seat));
        Map<String, Voucher> vouchers = Voucher.byCodes(event.id,
                positions.stream().map(CartRequests.NewPosition::voucherCode).filter(Objects::nonNull).toList());
        List<Claim> claims = new ArrayList<>();
        for (int i = 0; i < positions.size(); i++) {
            CartRequests.NewPosition position = positions.get(i);
            Long seatId = null;
            if (position.seatGuid() != null) {
                Seat seat = seats.get(position.seatGuid());
                if (seat == null) {
                    throw new NotFoundException("seat", position.seatGuid());
                }
                if (position.count() != 1) {
                    throw new ValidationException("positions[" + i + "].quantity", "must be 1 with a seat");
                }
                seatId = seat.id;
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
                claims.add(new Claim(position.itemId(), seatId, voucherId));
            }
        }
        return claims;
    }
}

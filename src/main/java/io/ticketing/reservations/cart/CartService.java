package io.ticketing.reservations.cart;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.auth.Access;
import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.buyer.BuyerTokens;
import io.ticketing.reservations.cart.CartRows.Contents;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.FreedCapacity;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.reservation.Deadlines;
import io.ticketing.reservations.reservation.PositionLabels;
import io.ticketing.reservations.reservation.ReservationConfig;
import io.ticketing.reservations.reservation.ReservationConflict;
import io.ticketing.reservations.reservation.Reservations;
import io.ticketing.reservations.waitingroom.WaitingRoom;

/**
 * Carts: holds that expire on their own. Reviving holds goes through {@link Reservations}; adding them is
 * {@link CartAdds}'s.
 */
@ApplicationScoped
public class CartService {

    private final Reservations reservations;
    private final ReservationConfig config;
    private final CartRows rows;
    private final Deadlines deadlines;
    private final FreedCapacity freed;
    private final BuyerTokens buyers;
    private final Access access;

    CartService(Reservations reservations, ReservationConfig config, CartRows rows, Deadlines deadlines,
            FreedCapacity freed, BuyerTokens buyers, Access access) {
        this.access = access;
        this.buyers = buyers;
        this.freed = freed;
        this.reservations = reservations;
        this.config = config;
        this.rows = rows;
        this.deadlines = deadlines;
    }

    /**
     * A new empty cart of the buyer {@code buyerToken} vouches for, or an admin token names as {@code buyer} (or
     * none), opened with {@code admission}: one cart a ticket, else 403 {@code admission_required}. It sells in its
     * token's channel (contract section 12).
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Contents create(WaitingRoom.Admission admission, String buyer, String buyerToken) {
        Event event = admission.event();
        String id = RandomIds.next();
        Instant expires = deadlines.inSeconds(event.cartTtlSeconds);
        String vouched = buyers.buyer(event, buyer, buyerToken);
        String channel = access.channel();
        Cart cart = admission.ticket() == null
                ? rows.insert(id, event.id, expires, vouched, channel)
                : rows.insertAdmitted(id, event.id, expires, vouched, channel, admission.ticket())
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
        return new Contents(new Cart(cartId, event.id, cart.cart().createdAt(), expires, cart.cart().buyer(),
                cart.cart().channel()),
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
        reservations.reserve(event.id, cart.cart().holder(), stale.stream().map(CartPosition::claim).toList(),
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
        return new CartView(contents.cart().id(), contents.cart().buyer(), contents.cart().channel(),
                contents.cart().expires(),
                labels.total().toPlainString(),
                positions.stream().map(p -> new CartView.Position(p.id(), p.itemId(), labels.seatGuid(p),
                        labels.voucherCode(p), p.price().toPlainString(), p.expires(), p.dateId(), p.bundledIn()))
                        .toList());
    }
}

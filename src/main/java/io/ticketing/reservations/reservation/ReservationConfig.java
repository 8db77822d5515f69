package io.ticketing.reservations.reservation;

import java.time.Duration;
import java.time.Instant;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Limits of the cart and order flows ({@code RESERVATION_*} environment variables). */
@ConfigMapping(prefix = "reservation")
public interface ReservationConfig {

    /** The most positions one request may add; more is 413 {@code too_many_positions}. */
    @WithDefault("50")
    int maxPositions();

    /**
     * A hold with less than this left is re-checked under the locks when its cart is extended or checked out,
     * as if it had expired. It must exceed the longest a durable transaction may run
     * ({@code lock.transaction-timeout}), so that no hold can run out between the decision and the commit.
     */
    @WithDefault("60s")
    Duration recheckWithin();

    /**
     * The longest a cart position can be held from its creation, however often its cart is extended
     * ({@code CART_MAX_HOLD}): without it a client could hold the last seats forever.
     */
    @WithDefault("2h")
    Duration maxHold();

    /**
     * Whether adds to cart and checkouts of one event that arrive while another batch of it runs are decided
     * together ({@link ClaimBatches}; {@code RESERVATION_COMBINE=false} decides each in a transaction of its own).
     */
    @WithDefault("true")
    boolean combine();

    default boolean needsRecheck(Instant expires, Instant now) {
        return expires.isBefore(now.plus(recheckWithin()));
    }
}

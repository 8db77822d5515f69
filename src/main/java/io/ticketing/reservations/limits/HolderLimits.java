package io.ticketing.reservations.limits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.reservation.ReservationCheckpoints;

/**
 * What one client (its address) and one buyer may hold of what an event hands to browsers: queue tickets, waiting
 * list entries (contract sections 8 and 9). A browser holds the storefront token, so without a limit a bot could
 * take thousands. The client and the buyer are locked while they are counted, so that a burst of requests cannot
 * all count too few; the locks last until the caller's durable transaction ends, after it has written what it adds.
 */
@ApplicationScoped
public class HolderLimits {

    /** How long a client told it holds enough waits before asking again: what it holds runs out in minutes. */
    private static final Duration RETRY_AFTER = Duration.ofSeconds(60);

    /**
     * One limit: the most a client and a buyer may hold at once, and its refusal, 429 {@code code}, which names what
     * is held ({@code held}, a plural) and what to do instead ({@code instead}).
     */
    public record Limit(int perClient, int perBuyer, String code, String held, String instead) {
    }

    private final AdvisoryLocks locks;
    private final ReservationCheckpoints checkpoints;

    HolderLimits(AdvisoryLocks locks, ReservationCheckpoints checkpoints) {
        this.locks = locks;
        this.checkpoints = checkpoints;
    }

    /**
     * In a durable transaction: locks {@code client} and {@code buyer} (null: none) of the event, and refuses when
     * either holds as many as {@code limit} allows by {@code heldByClient} and {@code heldByBuyer}.
     */
    public void requireRoom(Event event, Limit limit, String client, String buyer, ToLongFunction<String> heldByClient,
            ToLongFunction<String> heldByBuyer) {
        List<LockTarget> holders = new ArrayList<>(List.of(LockTarget.holder(event.id, "client", client)));
        if (buyer != null) {
            holders.add(LockTarget.holder(event.id, "buyer", buyer));
        }
        checkpoints.beforeLocks(event.id, 1);
        locks.lockObjects(event.id, holders);
        boolean full = heldByClient.applyAsLong(client) >= limit.perClient()
                || buyer != null && heldByBuyer.applyAsLong(buyer) >= limit.perBuyer();
        checkpoints.afterChecks(event.id, 1);
        if (full) {
            throw new ApiException(429, limit.code(), "Too Many Requests", "This client, or this buyer, holds as many "
                    + limit.held() + " of event '" + event.slug + "' as it may; " + limit.instead() + ".")
                    .retryAfter(RETRY_AFTER);
        }
    }
}

package io.ticketing.reservations.waitingroom;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.buyer.BuyerTokens;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.limits.HolderLimits;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;

/**
 * An event's waiting room (contract section 8): buyers take queue tickets, {@link Admissions} admits them at the
 * configured rate, and an admitted ticket carries a signed token the event's cart endpoints require while the
 * room is on. Reading tickets never locks; taking one locks its client and buyer ({@link HolderLimits}), never
 * inventory.
 */
@ApplicationScoped
public class WaitingRoom {

    public static final String HEADER = "Admission-Token";

    private final EventService events;
    private final QueueTickets tickets;
    private final AdmissionTokens tokens;
    private final BuyerTokens buyers;
    private final HolderLimits limits;
    private final Clock clock;
    private final HolderLimits.Limit ticketLimit;

    WaitingRoom(EventService events, QueueTickets tickets, AdmissionTokens tokens, BuyerTokens buyers,
            HolderLimits limits, Clock clock,
            @ConfigProperty(name = "waiting-room.tickets-per-client") int ticketsPerClient,
            @ConfigProperty(name = "waiting-room.tickets-per-buyer") int ticketsPerBuyer) {
        this.ticketLimit = new HolderLimits.Limit(ticketsPerClient, ticketsPerBuyer, "too_many_tickets", "tickets",
                "poll the one you have");
        this.events = events;
        this.tickets = tickets;
        this.tokens = tokens;
        this.buyers = buyers;
        this.limits = limits;
        this.clock = clock;
    }

    /**
     * A new queue ticket for {@code client} (its address) and the buyer {@code buyerToken} vouches for (or none),
     * unless they hold as many as they may (contract section 8: a bot taking thousands would be almost sure to be
     * first when the room opens): 429 {@code too_many_tickets}. A ticket counts until its admission runs out.
     */
    @DurableTransaction
    public QueueTicketView join(Event event, String client, String buyerToken) {
        if (!event.waitingRoomEnabled) {
            throw new ApiException(409, "waiting_room_off", "Conflict",
                    "Event '" + event.slug + "' has no waiting room on; go straight to the carts.");
        }
        String buyer = buyers.buyer(event, null, buyerToken);
        limits.requireRoom(event, ticketLimit, client, buyer,
                holder -> tickets.heldByClient(event.id, holder, event.cartTtlSeconds),
                holder -> tickets.heldByBuyer(event.id, holder, event.cartTtlSeconds));
        String id = RandomIds.next();
        tickets.join(id, event.id, event.opensAt, client, buyer);
        return ticket(event, id);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public QueueTicketView ticket(Event event, String id) {
        QueueTickets.Ticket ticket = tickets.read(event.id, id, event.opensAt)
                .orElseThrow(() -> new NotFoundException("queue ticket", id));
        if (ticket.admittedAt() != null) {
            Instant expires = ticket.admittedAt().plusSeconds(event.cartTtlSeconds);
            return new QueueTicketView(id, 0, 0, tokens.issue(event.id, id, expires));
        }
        return new QueueTicketView(id, ticket.ahead(), estimatedWaitSeconds(event, ticket.ahead()), null);
    }

    /** The event of a request that opens a cart, and the admitted ticket the cart is then bound to (null: no room). */
    public record Admission(Event event, String ticket) {
    }

    /**
     * The event of a request that opens a cart, by slug. While the event's room is on: 403 {@code admission_required}
     * unless {@code token} was issued to an admitted ticket of this event and has not expired; the cart opened is
     * that ticket's, and a ticket opens one cart only (contract section 8), which the cart's insert decides.
     */
    public Admission admittedToOpen(String slug, String token) {
        Event event = events.get(slug);
        if (!event.waitingRoomEnabled) {
            return new Admission(event, null);
        }
        return new Admission(event, tokens.ticketOf(event.id, token).orElseThrow(() -> admissionRequired(event)));
    }

    /**
     * The event of a request on cart {@code cartId} (reading, changing, extending or checking it out), by slug. While
     * the event's room is on: 403 {@code admission_required} unless {@code token} admits to the event now, and, for a
     * cart opened with an admission, is that admission: an admission is bound to its one cart, and lends nothing to
     * another. A cart opened while the room was off takes any admission to the event.
     */
    public Event admitted(String slug, String token, String cartId) {
        Event event = events.get(slug);
        if (event.waitingRoomEnabled) {
            String ticket = tokens.ticketOf(event.id, token).orElseThrow(() -> admissionRequired(event));
            if (!tickets.admissionOf(event.id, cartId).map(ticket::equals).orElse(true)) {
                throw admissionRequired(event);
            }
        }
        return event;
    }

    public static ApiException admissionRequired(Event event) {
        return new ApiException(403, "admission_required", "Forbidden", "Event '" + event.slug
                + "' sells through its waiting room: take a queue ticket and send its admission token in the "
                + HEADER + " header; an admission is good for the one cart it opened.");
    }

    /**
     * The time to the opening, if ahead, plus the tickets ahead at the admission rate; 0 once the room is off (its
     * rate may be gone then), since the carts need no admission.
     */
    private long estimatedWaitSeconds(Event event, long ahead) {
        if (!event.waitingRoomEnabled || event.admissionPerMinute == null) {
            return 0;
        }
        long untilOpening = event.opensAt == null
                ? 0
                : Math.max(0, Duration.between(clock.instant(), event.opensAt).toSeconds());
        return untilOpening + (ahead + 1) * 60 / event.admissionPerMinute;
    }
}

package io.ticketing.reservations.waitingroom;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;

/**
 * An event's waiting room (contract section 8): buyers take queue tickets, {@link Admissions} admits them at the
 * configured rate, and an admitted ticket carries a signed token the event's cart endpoints require while the
 * room is on. Taking and reading tickets never takes an inventory lock.
 */
@ApplicationScoped
public class WaitingRoom {

    public static final String HEADER = "Admission-Token";

    private final EventService events;
    private final QueueTickets tickets;
    private final AdmissionTokens tokens;
    private final Clock clock;

    WaitingRoom(EventService events, QueueTickets tickets, AdmissionTokens tokens, Clock clock) {
        this.events = events;
        this.tickets = tickets;
        this.tokens = tokens;
        this.clock = clock;
    }

    @Transactional
    public QueueTicketView join(Event event) {
        if (!event.waitingRoomEnabled) {
            throw new ApiException(409, "waiting_room_off", "Conflict",
                    "Event '" + event.slug + "' has no waiting room on; go straight to the carts.");
        }
        String id = RandomIds.next();
        tickets.join(id, event.id, event.opensAt);
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

    /**
     * The event of a cart or checkout request, by slug. While the event's room is on: 403
     * {@code admission_required} unless {@code token} was issued to an admitted ticket of this event and has not
     * expired.
     */
    public Event admitted(String slug, String token) {
        Event event = events.get(slug);
        if (event.waitingRoomEnabled && !tokens.admits(event.id, token)) {
            throw new ApiException(403, "admission_required", "Forbidden", "Event '" + event.slug
                    + "' sells through its waiting room: take a queue ticket and send its admission token in the "
                    + HEADER + " header.");
        }
        return event;
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

package io.ticketing.reservations.waitingroom;

import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;

/**
 * Admits queued buyers on every replica, every {@code waiting-room.admission-interval}. Each room is admitted by
 * one replica at a time (its event row, locked with SKIP LOCKED); the others skip it that round. Admissions are
 * slots {@code 60 s / admission_per_minute} apart on the database's clock, each after the room's last: a round
 * admits the lowest places waiting into every slot that has come since, looking back at most two rounds (a room
 * idle for longer, or a stalled replica, loses the older slots rather than admitting a burst). So all replicas
 * together admit exactly at the rate, never more than a sixth of it (plus one) in any 10 seconds, and a ticket is
 * admitted once: the update sets only unset admissions.
 */
@ApplicationScoped
public class Admissions {

    private static final Logger LOG = Logger.getLogger(Admissions.class);

    private final QueueTickets tickets;
    private final Duration lookBack;

    Admissions(QueueTickets tickets,
            @ConfigProperty(name = "waiting-room.admission-interval") Duration interval) {
        this.tickets = tickets;
        this.lookBack = interval.multipliedBy(2);
    }

    @Scheduled(identity = "admissions", every = "${waiting-room.admission-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void admitAll() {
        for (long eventId : tickets.openRooms()) {
            try {
                admit(eventId); // Quarkus intercepts self-invocation: each room is its own transaction.
            } catch (RuntimeException e) {
                LOG.warnf(e, "admitting the waiting room of event %d failed; the next round retries", eventId);
            }
        }
    }

    /** One round for one room; returns how many tickets it admitted (0 when another replica has the room). */
    @Transactional
    public int admit(long eventId) {
        return tickets.takeTurn(eventId).map(room -> {
            Duration spacing = Duration.ofNanos(60_000_000_000L / room.perMinute());
            QueueTickets.Slots slots = tickets.slots(eventId);
            Instant after = latest(slots.now().minus(lookBack.compareTo(spacing) > 0 ? lookBack : spacing),
                    slots.last(), room.opensAt() == null ? null : room.opensAt().minus(spacing));
            long due = Duration.between(after, slots.now()).toNanos() / spacing.toNanos();
            return due > 0 ? tickets.admit(eventId, (int) Math.min(due, 10_000), after, spacing) : 0;
        }).orElse(0);
    }

    private static Instant latest(Instant first, Instant... others) {
        Instant latest = first;
        for (Instant other : others) {
            if (other != null && other.isAfter(latest)) {
                latest = other;
            }
        }
        return latest;
    }
}

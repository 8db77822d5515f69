package io.ticketing.reservations.availability;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.InventoryViews.EventAvailability;
import io.vertx.core.Vertx;

/**
 * Live availability (contract section 8): one hub per event that has subscribers on this replica. Every
 * {@code availability.stream-interval} the hub reads the event's availability from the database, as
 * {@code GET /availability} does, and sends it to every subscriber when it changed. Reading the database, not this
 * replica's own sales, is what lets every replica's streams see every replica's sales; one read per event and
 * interval, whatever the number of subscribers, is what keeps idle subscribers cheap. A new subscriber gets the
 * latest reading at once. No lock is taken.
 */
@ApplicationScoped
public class AvailabilityStreams {

    private static final Logger LOG = Logger.getLogger(AvailabilityStreams.class);

    /** The readings of one event (on one date, or of none), the last of them replayed to each new subscriber. */
    private static final class Hub {

        private final Event event;
        private final Long dateId;
        private final String channel;
        private final BroadcastProcessor<EventAvailability> readings = BroadcastProcessor.create();
        private final Multi<EventAvailability> stream;
        private final AtomicInteger subscribers = new AtomicInteger();
        private volatile EventAvailability latest;

        private Hub(Event event, Long dateId, String channel, EventAvailability first) {
            this.event = event;
            this.dateId = dateId;
            this.channel = channel;
            this.latest = first;
            this.stream = Multi.createBy().replaying().upTo(1).ofSeedAndMulti(List.of(first), readings);
        }
    }

    /** An event, and the date of an event with dates its subscribers asked for (null: none). */
    private record Key(long eventId, Long dateId, String channel) {
    }

    private final Map<Key, Hub> hubs = new ConcurrentHashMap<>();
    private volatile boolean closing;
    private final StorefrontAvailability availability;
    private final Vertx vertx;
    private final Duration interval;
    /** A round still reading when the timer fires again is not joined by another (as the sweeps' SKIP). */
    private final AtomicBoolean reading = new AtomicBoolean();
    private long timer;

    AvailabilityStreams(StorefrontAvailability availability, MeterRegistry meters, Vertx vertx,
            @ConfigProperty(name = "availability.stream-interval") Duration interval) {
        this.availability = availability;
        this.vertx = vertx;
        this.interval = interval;
        Gauge.builder("availability.stream.subscribers", hubs,
                all -> all.values().stream().mapToInt(hub -> hub.subscribers.get()).sum())
                .description("Open availability streams on this replica").register(meters);
    }

    /**
     * The event's availability (on {@code dateId}, contract section 10; of the items sold in {@code channel}, section
     * 12) now, then each change. Blocking: the first subscriber of an event, date and channel reads it.
     */
    public Multi<EventAvailability> subscribe(Event event, Long dateId, String channel) {
        if (closing) {
            return Multi.createFrom().item(availability.fresh(event, dateId, channel));
        }
        Hub hub = hubs.computeIfAbsent(new Key(event.id, dateId, channel),
                key -> new Hub(event, dateId, channel, availability.fresh(event, dateId, channel)));
        return hub.stream.onSubscription().invoke(() -> hub.subscribers.incrementAndGet())
                .onTermination().invoke(() -> hub.subscribers.decrementAndGet());
    }

    /**
     * At SIGTERM every stream ends (and a new one sends one reading and ends): an open stream would hold the
     * graceful shutdown for its whole timeout. EventSource reconnects by itself, through the Service, to a replica
     * that stays.
     */
    void endStreams(@Observes ShutdownDelayInitiatedEvent shutdown) {
        closing = true;
        hubs.values().forEach(hub -> hub.readings.onComplete());
        hubs.clear();
    }

    /**
     * A Vert.x timer, not {@code @Scheduled}: Quarkus' scheduler looks at its triggers once a second, so the 500 ms
     * interval ran once a second (and it said so in the log at every start). The round runs on a worker thread, as a
     * scheduled method did.
     */
    void start(@Observes StartupEvent started) {
        timer = vertx.setPeriodic(interval.toMillis(), tick -> {
            if (reading.compareAndSet(false, true)) {
                vertx.executeBlocking(() -> {
                    readAll();
                    return null;
                }, false).onComplete(done -> reading.set(false));
            }
        });
    }

    void stop(@Observes ShutdownEvent shutdown) {
        vertx.cancelTimer(timer);
    }

    /** One round: every hub with subscribers reads its event's availability and sends it if it changed. */
    @ActivateRequestContext
    void readAll() {
        hubs.values().removeIf(hub -> {
            if (hub.subscribers.get() == 0) {
                hub.readings.onComplete();
                return true;
            }
            return false;
        });
        for (Hub hub : hubs.values()) {
            try {
                EventAvailability now = availability.fresh(hub.event, hub.dateId, hub.channel);
                if (!now.equals(hub.latest)) {
                    hub.latest = now;
                    hub.readings.onNext(now);
                }
            } catch (RuntimeException e) {
                LOG.warnf(e, "reading the availability of event %d failed; the next round retries", hub.event.id);
            }
        }
    }
}

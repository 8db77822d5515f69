package io.ticketing.reservations.demo;

import java.util.List;
import java.util.stream.IntStream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import io.ticketing.reservations.auth.Caller;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.event.EventRequests;
import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.inventory.InventoryRequests;
import io.ticketing.reservations.inventory.InventoryService;
import io.ticketing.reservations.inventory.Item;
import io.ticketing.reservations.inventory.QuotaService;
import io.ticketing.reservations.inventory.SeatService;
import io.ticketing.reservations.inventory.VoucherService;

/**
 * Creates the demo event the README's examples use, when {@code demo.enabled} (the local run command), through
 * the same service calls an admin's requests make.
 */
@ApplicationScoped
class DemoEvent {

    static final String SLUG = "demo-concert";

    private static final Logger LOG = Logger.getLogger(DemoEvent.class);

    @ConfigProperty(name = "demo.enabled", defaultValue = "false")
    boolean enabled;

    private final EventService events;
    private final InventoryService inventory;
    private final QuotaService quotas;
    private final SeatService seats;
    private final VoucherService vouchers;

    DemoEvent(EventService events, InventoryService inventory, QuotaService quotas, SeatService seats,
            VoucherService vouchers) {
        this.quotas = quotas;
        this.events = events;
        this.inventory = inventory;
        this.seats = seats;
        this.vouchers = vouchers;
    }

    /**
     * The event of the README's walk-through and of the checkout page (/checkout/): standing tickets, ten balcony
     * seats, a voucher and a waiting room.
     */
    @ActivateRequestContext
    void createOnStart(@Observes StartupEvent startup) {
        if (!enabled) {
            return;
        }
        Event event = Event.findBySlug(SLUG)
                .orElseGet(
                        () -> events.create(
                                new EventRequests.NewEvent(SLUG, "Demo Concert", "EUR", null, null, null, null)));
        if (Item.count("eventId = ?1", event.id) > 0) {
            return;
        }
        long standing = inventory.createItem(event,
                new InventoryRequests.NewItem("Standing", "49.00", false, true, null, false, null, null, null)).id();
        long balcony = inventory.createItem(event,
                new InventoryRequests.NewItem("Balcony seat", "89.00", true, true, null, false, null, null, null)).id();
        quotas.createQuota(event, new InventoryRequests.NewQuota("Floor", 100, List.of(standing), null));
        quotas.createQuota(event, new InventoryRequests.NewQuota("Balcony", 10, List.of(balcony), null));
        seats.create(event, new InventoryRequests.NewSeats(IntStream.rangeClosed(1, 10)
                .mapToObj(n -> new InventoryRequests.NewSeat("balcony-" + n, "Balcony, seat " + n, balcony, false,
                        "Balcony", "A", n, null, null))
                .toList(), null), Caller.WEB_CHANNEL);
        vouchers.create(event, new InventoryRequests.NewVoucher("FRIENDS", 5, null, null, null, null, false, null));
        openWaitingRoom(event.id);
        LOG.infof("created the demo event '%s' with its items, seats, voucher and waiting room", SLUG);
    }

    /**
     * A room admitting 60 buyers a minute, so that the checkout page shows its buyer a place in line. Set on the
     * event's row: an admin's PATCH needs the If-Match of a request, and none is made at start.
     */
    private static void openWaitingRoom(long eventId) {
        QuarkusTransaction.requiringNew().run(() -> {
            Event event = Event.findById(eventId);
            event.waitingRoomEnabled = true;
            event.admissionPerMinute = 60;
        });
    }
}

package io.ticketing.reservations.event;

import java.math.BigDecimal;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;
import io.ticketing.reservations.inventory.Item;
import io.ticketing.reservations.inventory.Quota;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;

/** Creates the demo event the README's examples use, when {@code demo.enabled} (the local run command). */
@ApplicationScoped
class DemoEvent {

    static final String SLUG = "demo-concert";

    private static final Logger LOG = Logger.getLogger(DemoEvent.class);

    @ConfigProperty(name = "demo.enabled", defaultValue = "false")
    boolean enabled;

    /** The event of the README's walk-through: standing tickets, ten balcony seats and a voucher. */
    @Transactional
    void createOnStart(@Observes StartupEvent startup) {
        if (!enabled) {
            return;
        }
        Event event = Event.findBySlug(SLUG).orElseGet(() -> {
            Event created = new Event();
            created.slug = SLUG;
            created.name = "Demo Concert";
            created.currency = "EUR";
            created.persistAndFlush();
            return created;
        });
        if (!Item.listForEvent(event.id).isEmpty()) {
            return;
        }
        Item standing = item(event, "Standing", "49.00", false);
        Item balcony = item(event, "Balcony seat", "89.00", true);
        quota(event, "Floor", 100, standing);
        quota(event, "Balcony", 10, balcony);
        for (int number = 1; number <= 10; number++) {
            Seat seat = new Seat();
            seat.eventId = event.id;
            seat.guid = "balcony-" + number;
            seat.name = "Balcony, seat " + number;
            seat.itemId = balcony.id;
            seat.persist();
        }
        Voucher voucher = new Voucher();
        voucher.eventId = event.id;
        voucher.code = "FRIENDS";
        voucher.maxUsages = 5;
        voucher.persist();
        LOG.infof("created the demo event '%s' with its items, seats and voucher", SLUG);
    }

    private static Item item(Event event, String name, String price, boolean requiresSeat) {
        Item item = new Item();
        item.eventId = event.id;
        item.name = name;
        item.price = new BigDecimal(price);
        item.requiresSeat = requiresSeat;
        item.persistAndFlush();
        return item;
    }

    private static void quota(Event event, String name, int size, Item item) {
        Quota quota = new Quota();
        quota.eventId = event.id;
        quota.name = name;
        quota.size = size;
        quota.itemIds.add(item.id);
        quota.persist();
    }
}

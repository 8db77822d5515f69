package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newBundle;
import static io.ticketing.reservations.support.Api.newDate;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newQuotaOn;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newSeatsOn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.ticketing.reservations.support.Sql;

/**
 * The two events of a property run, their sizes drawn from the run's seed: one without dates and one with, each
 * with a bundle, seats, an item in several quotas, an item in an unlimited one, vouchers of every kind (of no scope,
 * of an item, of a quota, of a date, of a seat; blocking or not), a bundle limited per buyer, and a waiting list where
 * an event may have one.
 */
final class PropertyEvents {

    private final Sql sql;
    private final Random random;
    private final String prefix;

    PropertyEvents(Sql sql, Random random, boolean locking) {
        this.sql = sql;
        this.random = random;
        this.prefix = locking ? "property" : "property-unlocked";
    }

    /** Tickets in two quotas, one also in an unlimited quota and beside seats, and a bundle that brings a drink. */
    PropertyEvent undated() {
        String slug = newEvent(prefix);
        long ticket = newItem(slug, "In two quotas", "10");
        long shared = newItem(slug, "Shared with unlimited", "20");
        long seat = newSeatedItem(slug, "Seated", "30");
        long drink = newItem(slug, "Drink", "4");
        long bundle = newBundle(slug, "Ticket with a drink", "13", drink, 1);
        PropertyEvent.Seated seats = new PropertyEvent.Seated(seat, "z", 2 + random.nextInt(2));
        newSeats(slug, seat, seats.prefix(), seats.count());
        PropertyEvent event = new PropertyEvent(slug, sql, random, List.of(),
                List.of(ticket, shared, seat, drink, bundle), bundle, drink, 1, List.of(), List.of(seats));
        long wide = newQuota(slug, size(2, 4), List.of(ticket, shared, bundle));
        event.quotas.addAll(List.of(wide, newQuota(slug, size(1, 3), List.of(ticket)),
                newQuota(slug, null, List.of(shared)), newQuota(slug, size(1, 3), List.of(seat, shared)),
                newQuota(slug, size(1, 2), List.of(drink))));
        limitPerBuyer(slug, bundle);
        voucher(event, "PLAIN", Map.of());
        voucher(event, "ITEM", Map.of("item_id", event.any(List.of(shared, bundle)), "block_quota",
                random.nextBoolean()));
        voucher(event, "BLOCKITEM", Map.of("item_id", ticket, "block_quota", true, "valid_until",
                "2099-01-01T00:00:00Z"));
        voucher(event, "BLOCKQUOTA", Map.of("quota_id", wide, "block_quota", true));
        voucher(event, "SEAT", Map.of("seat_guid", "z-1"));
        waitingListOn(slug);
        return event;
    }

    /**
     * Two or three dates, each with its quotas and seats; a ticket of one date, a pass and a seated pass for every
     * date, a seat of one date and a pair of tickets bundled; vouchers of no date (two of items of one date, not
     * blocking yet), of a date, of a pass, of a quota and of a seat.
     */
    PropertyEvent dated() {
        String slug = newEvent(prefix + "-dated");
        List<Long> dates = new ArrayList<>();
        int days = 2 + random.nextInt(2);
        for (int day = 0; day < days; day++) {
            dates.add(newDate(slug, 4 + day));
        }
        long ticket = newItem(slug, "Ticket", "10");
        long pass = newItem(slug, Map.of("name", "Pass", "price", "25", "every_date", true));
        long seat = newSeatedItem(slug, "Seat", "30");
        long seatedPass = newItem(slug,
                Map.of("name", "Seated pass", "price", "70", "every_date", true, "requires_seat", true));
        long pair = newBundle(slug, "Pair", "18", ticket, 2);
        PropertyEvent.Seated seats = new PropertyEvent.Seated(seat, "z", 2);
        PropertyEvent.Seated passSeats = new PropertyEvent.Seated(seatedPass, "p", 2);
        PropertyEvent event = new PropertyEvent(slug, sql, random, dates, List.of(ticket, pass, seat, seatedPass, pair),
                pair, ticket, 2, List.of(pass, seatedPass), List.of(seats, passSeats));
        for (long date : dates) {
            event.quotas.add(newQuotaOn(slug, date, size(1, 3), List.of(ticket, pass, seatedPass)));
            event.quotas.add(newQuotaOn(slug, date, size(1, 2), List.of(seat, seatedPass)));
            newSeatsOn(slug, date, seat, seats.prefix(), seats.count());
            newSeatsOn(slug, date, seatedPass, passSeats.prefix(), passSeats.count());
        }
        long all = newQuota(slug, size(3, 5), List.of(ticket, pass, pair));
        event.quotas.add(all);
        limitPerBuyer(slug, pair);
        voucher(event, "PLAIN", Map.of());
        voucher(event, "NODATE", Map.of("item_id", ticket, "block_quota", false));
        voucher(event, "SEATS", Map.of("item_id", seat, "block_quota", false));
        voucher(event, "DAY", Map.of("item_id", ticket, "date_id", dates.get(0), "block_quota", true));
        voucher(event, "PASS", Map.of("item_id", pass, "block_quota", random.nextBoolean()));
        voucher(event, "BLOCKQUOTA", Map.of("quota_id", all, "block_quota", true));
        voucher(event, "SEAT", Map.of("seat_guid", "z-1", "date_id", dates.get(dates.size() - 1)));
        return event;
    }

    /**
     * A voucher of one to three uses (two at most when it blocks); created with {@code call}, since a blocking one
     * may not fit the quotas this seed drew: its code stays in the event's steps either way.
     */
    private void voucher(PropertyEvent event, String code, Map<String, Object> fields) {
        Map<String, Object> voucher = new HashMap<>(fields);
        voucher.put("code", code);
        voucher.put("max_usages", Boolean.TRUE.equals(fields.get("block_quota")) ? size(1, 2) : size(1, 3));
        PropertyCalls.call("voucher " + voucher, admin().body(voucher).post(PropertyEvent.PATH + "/vouchers",
                event.slug));
        event.vouchers.add(code);
    }

    /**
     * Two of the bundle per buyer (contract section 8): a cart without a buyer cannot hold it, and a fan's carts,
     * orders, order changes and the transfers it receives count towards it.
     */
    private static void limitPerBuyer(String slug, long bundle) {
        admin().header("If-Match", "\"0\"").body(Map.of("max_per_buyer", 2))
                .patch(PropertyEvent.PATH + "/items/{item}", slug, bundle).then().statusCode(200);
    }

    /** Only an event without dates has one (contract section 10: offers are per item, not per date). */
    private static void waitingListOn(String slug) {
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true)))
                .patch(PropertyEvent.PATH, slug).then().statusCode(200);
    }

    private int size(int least, int most) {
        return least + random.nextInt(most - least + 1);
    }
}

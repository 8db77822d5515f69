package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.reservation.PropertyEvent.PATH;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.ticketing.reservations.cart.AddProbe;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Sql;

/**
 * Contract section 3, "What a caller is shown is what it can take", checked the way Jepsen's checkers compare what
 * clients were told with what the system then did: after a step, what a read told a channel (the catalog's
 * {@code available_number}, a seat shown free in the seat list or the plan, a live offer) is tried as a write by
 * {@link AddProbe}, which runs the add through the service and rolls it back. N shown means N can be added and N+1
 * not; a free seat can be held; an offer can be bought with. Each broken promise names the read and the write.
 */
final class ReadProbes {

    /** Of a probe that needs seats: fewer free seats are shown than it needs, so it cannot be made. */
    static final String TOO_FEW_SEATS = "too_few_seats";
    /** The most positions one probe asks for: enough to meet every edge of the property test's small quotas. */
    private static final int MOST = 8;

    /**
     * The live offers of an event, offered or partly redeemed: the entry, its item, the code and the uses not yet held
     * or redeemed; but those whose voucher an admin made stop blocking, which keep nothing any more.
     */
    private static final String OFFERS = """
            SELECT e.id, e.item_id, v.code, v.max_usages - v.redeemed - (SELECT count(*) FROM cart_positions c
                     WHERE c.voucher_id = v.id AND c.expires >= now())
            FROM waiting_list_entries e JOIN vouchers v ON v.id = e.voucher_id
            WHERE e.event_id = ?1 AND e.status IN ('offered', 'redeemed') AND v.valid_until >= now() AND v.block_quota
            ORDER BY e.seq""";
    /** Offer runs of the event due now: a read and its probe wait for none, so that no run falls between them. */
    private static final String OFFER_RUNS_DUE = """
            SELECT count(*) FROM tasks WHERE kind = 'waiting_list.offer' AND payload = ?1
              AND status IN ('ready', 'running') AND run_at <= now()""";

    private final Random random;
    private final Sql sql;
    private final AddProbe adds;
    private final Runnable forgetReadings;

    ReadProbes(Random random, Sql sql, AddProbe adds, Runnable forgetReadings) {
        this.random = random;
        this.sql = sql;
        this.adds = adds;
        this.forgetReadings = forgetReadings;
    }

    /** Every probe after a step on {@code event}: what each broke, empty where the reads told the truth. */
    List<String> after(PropertyEvent event) {
        Eventually.within(Duration.ofSeconds(10), "the offer runs of " + event,
                () -> sql.number(OFFER_RUNS_DUE, Long.toString(event.id)) == 0);
        forgetReadings.run();
        List<String> broken = new ArrayList<>();
        String channel = random.nextInt(3) == 0 ? PropertyEvent.BOX_OFFICE : PropertyEvent.WEB;
        Long date = event.dated() ? event.any(event.dates) : null;
        catalog(event, channel, date, broken);
        seat(event, channel, date, broken);
        offers(event, broken);
        return broken;
    }

    /** Up to two items of the catalog: N shown can be added, N+1 cannot. */
    private void catalog(PropertyEvent event, String channel, Long date, List<String> broken) {
        List<Map<String, Object>> items = event.shop(channel).queryParams(date == null
                ? Map.of()
                : Map.of("date_id",
                        date))
                .get(PATH + "/catalog", event.slug).then().statusCode(200).extract().jsonPath().getList("items");
        for (int i = 0; i < 2 && !items.isEmpty(); i++) {
            Map<String, Object> shown = items.remove(random.nextInt(items.size()));
            long item = ((Number) shown.get("item_id")).longValue();
            Integer number = (Integer) shown.get("available_number");
            Integer limit = event.reads.limitPerBuyer(item);
            int asked = Math.min(number == null ? 2 : number, limit == null ? MOST : Math.min(MOST, limit));
            String read = "the catalog showed " + channel + " " + number + " of item " + item + " on " + date;
            if (asked > 0) {
                String refused = refusal(event, channel, item, date, asked, null);
                if (refused != null) {
                    broken.add(read + ", but adding " + asked + " answered " + refused);
                }
            }
            if (number != null && number < MOST && (limit == null || number < limit)) {
                String refused = refusal(event, channel, item, date, number + 1, null);
                if (refused == null) {
                    broken.add(read + ", but " + (number + 1) + " could be added");
                }
            }
        }
    }

    /** A seat the seat list or the plan shows free to the channel can be held there. */
    private void seat(PropertyEvent event, String channel, Long date, List<String> broken) {
        boolean fromPlan = random.nextBoolean() && event.reads.hasPlan();
        List<Map<String, Object>> free = fromPlan
                ? event.reads.freeInPlan(channel, date)
                : event.reads.freeSeats(channel, date);
        if (free.isEmpty()) {
            return;
        }
        Map<String, Object> seat = free.get(random.nextInt(free.size()));
        long item = ((Number) seat.get("item_id")).longValue();
        Map<String, Object> position = new LinkedHashMap<>(Map.of("item_id", item, "seat_guid", seat.get("guid")));
        if (date != null && !event.passes.contains(item)) {
            position.put("date_id", date);
        }
        String refused = adds.refusal(event.slug, event.probeCart(channel), List.of(position));
        if (refused != null) {
            broken.add((fromPlan ? "the plan" : "the seat list") + " showed " + channel + " seat " + seat.get("guid")
                    + " of item " + item + " free on " + date + ", but holding it answered " + refused);
        }
    }

    /** A live offer can be bought with, in the channel its entry joined from, for all the uses it has left. */
    private void offers(PropertyEvent event, List<String> broken) {
        for (Object row : sql.rows(OFFERS, event.id)) {
            Object[] offer = (Object[]) row;
            long item = ((Number) offer[1]).longValue();
            int uses = ((Number) offer[3]).intValue();
            String channel = event.entryChannels.getOrDefault((String) offer[0], PropertyEvent.WEB);
            Integer limit = event.reads.limitPerBuyer(item);
            if (uses <= 0 || limit != null && uses > limit || !event.reads.sells(item, channel)
                    || event.reads.overAnyQuotaOf(item)) {
                continue; // nothing left to buy, more than one buyer may have, or an admin took it off sale
            }
            String refused = refusal(event, channel, item, null, uses, (String) offer[2]);
            if (refused != null) {
                broken.add("entry " + offer[0] + " was offered " + uses + " of item " + item + " in " + channel
                        + ", but buying them with " + offer[2] + " answered " + refused);
            }
        }
    }

    /**
     * What adding {@code quantity} of {@code item} on {@code date} would answer in {@code channel}, with
     * {@code voucher} unless null: null where it fits. A seated item takes seats shown free;
     * {@link #TOO_FEW_SEATS} where fewer are shown.
     */
    String refusal(PropertyEvent event, String channel, long item, Long date, int quantity, String voucher) {
        List<Map<String, Object>> positions = new ArrayList<>();
        if (event.seatedAs(item).isPresent()) {
            Long seatsOn = date != null ? date : event.dated() ? event.dates.get(0) : null;
            List<Object> guids = event.reads.freeSeats(channel, seatsOn).stream()
                    .filter(seat -> ((Number) seat.get("item_id")).longValue() == item).map(seat -> seat.get("guid"))
                    .toList();
            if (guids.size() < quantity) {
                return TOO_FEW_SEATS;
            }
            for (int i = 0; i < quantity; i++) {
                positions.add(position(event, item, date, guids.get(i), null, voucher));
            }
        } else {
            positions.add(position(event, item, date, null, quantity, voucher));
        }
        return adds.refusal(event.slug, event.probeCart(channel), positions);
    }

    private static Map<String, Object> position(PropertyEvent event, long item, Long date, Object guid,
            Integer quantity, String voucher) {
        Map<String, Object> position = new HashMap<>(Map.of("item_id", item));
        if (event.dated() && !event.passes.contains(item)) {
            position.put("date_id", date != null ? date : event.dates.get(0));
        }
        if (guid != null) {
            position.put("seat_guid", guid);
        }
        if (quantity != null) {
            position.put("quantity", quantity);
        }
        if (voucher != null) {
            position.put("voucher_code", voucher);
        }
        return position;
    }
}

package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.reservation.PropertyCalls.call;
import static io.ticketing.reservations.reservation.PropertyEvent.PATH;
import static io.ticketing.reservations.support.Api.storefront;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.ticketing.reservations.waitinglist.Offers;

/**
 * The waiting list (contract section 9): joining for any item (sold out or not, on sale or not) from either channel,
 * each join's decision checked against what an add of its quantity then does, leaving, an offer run as a replica's
 * worker makes it, and buying with an offer.
 */
final class WaitingListSteps {

    /** What refuses an add for capacity alone: a join waits for these to pass. */
    private static final Set<String> CAPACITY = Set.of("quota_exhausted", "seat_unavailable",
            ReadProbes.TOO_FEW_SEATS);

    private final Random random;
    private final Offers offers;
    private final ReadProbes probes;

    WaitingListSteps(Random random, Offers offers, ReadProbes probes) {
        this.random = random;
        this.offers = offers;
        this.probes = probes;
    }

    String step(PropertyEvent event) {
        int dice = random.nextInt(4);
        if (dice == 0 || event.entries.isEmpty()) {
            long item = event.any(event.items);
            int quantity = 1 + random.nextInt(3);
            int fan = random.nextInt(6);
            String channel = random.nextInt(3) == 0 ? PropertyEvent.BOX_OFFICE : PropertyEvent.WEB;
            // Each fan joins from an address of its own, as buyers do: one address for all would soon meet the
            // per-client limit of joins.
            Response joined = event.shop(channel).header("X-Forwarded-For", "198.51.100." + (100 + fan))
                    .body(Map.of("item_id", item, "quantity", quantity, "email", "fan" + fan + "@example.com"))
                    .post(PATH + "/waiting_list", event.slug);
            String what = call("join the waiting list for " + quantity + " of item " + item + " in " + channel,
                    joined);
            if (joined.statusCode() == 201) {
                event.entries.add(joined.jsonPath().getString("id"));
                event.entryChannels.put(joined.jsonPath().getString("id"), channel);
            }
            requireTheAddAgrees(event, joined, channel, item, quantity, what);
            return what;
        }
        String entry = event.any(event.entries);
        if (dice == 1) {
            return call("leave the waiting list", storefront().delete(PATH + "/waiting_list/{entry}", event.slug,
                    entry));
        }
        if (dice == 2) {
            return "an offer run offers " + offers.offer(event.id) + " entries";
        }
        JsonPath offered = storefront().get(PATH + "/waiting_list/{entry}", event.slug, entry).jsonPath();
        if (offered.getString("offer.voucher_code") == null) {
            return "entry " + offered.getString("status") + " has no offer to buy with";
        }
        Map<String, Object> position = event.positionOf(offered.getLong("item_id"));
        position.put("voucher_code", offered.getString("offer.voucher_code"));
        if (!position.containsKey("seat_guid")) {
            position.put("quantity", offered.getInt("quantity"));
        }
        return call("buy with an offer " + position, storefront().body(Map.of("positions", List.of(position)))
                .post(PATH + "/carts/{cart}/positions", event.slug, event.newCart()));
    }

    /**
     * Section 3 for a join (section 9): it is refused {@code item_available} only where adding the quantity would
     * succeed, and accepted only where that add is refused for capacity.
     */
    private void requireTheAddAgrees(PropertyEvent event, Response joined, String channel, long item, int quantity,
            String what) {
        String code = joined.statusCode() == 201 ? "joined" : joined.jsonPath().getString("code");
        if (!code.equals("joined") && !code.equals("item_available")) {
            return;
        }
        String added = probes.refusal(event, channel, item, null, quantity, null);
        if (code.equals("item_available") && added != null) {
            throw new AssertionError(what + ", but adding them answered " + added);
        }
        if (code.equals("joined") && !CAPACITY.contains(String.valueOf(added))) {
            throw new AssertionError(what + ", but adding them answered " + (added == null ? "201" : added));
        }
    }
}

package io.ticketing.reservations.cart;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.ticketing.reservations.event.EventService;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.reservation.RacePauses;

/**
 * What an add to cart would do now, learned without leaving anything behind: the add runs alone, in its own durable
 * transaction, through every lock, count and check of the service, and where it fits it is rolled back before its
 * commit ({@link RacePauses#probing}). The property test compares it with what the reads said.
 */
@ApplicationScoped
public class AddProbe {

    @Inject
    CartAdds adds;

    @Inject
    EventService events;

    @Inject
    RacePauses pauses;

    /**
     * The refusal's code for adding {@code positions} (as a storefront sends them) to {@code cart} of event
     * {@code slug}, or null where they fit.
     */
    public String refusal(String slug, String cart, List<Map<String, Object>> positions) {
        List<CartRequests.NewPosition> asked = positions.stream().map(AddProbe::position).toList();
        long eventId = events.get(slug).id;
        try {
            pauses.probing(eventId, () -> adds.addAlone(events.get(slug), cart, asked));
        } catch (RacePauses.ProbeFits fits) {
            return null;
        } catch (ApiException refused) {
            return refused.code();
        }
        throw new AssertionError("a probe of " + positions + " was written");
    }

    private static CartRequests.NewPosition position(Map<String, Object> position) {
        return new CartRequests.NewPosition(((Number) position.get("item_id")).longValue(),
                (Integer) position.get("quantity"), (String) position.get("seat_guid"),
                (String) position.get("voucher_code"),
                position.get("date_id") == null ? null : ((Number) position.get("date_id")).longValue());
    }
}

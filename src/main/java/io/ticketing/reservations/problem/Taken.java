package io.ticketing.reservations.problem;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * 409: a name unique in its scope is taken. A create checks the name before it inserts, but two requests can both
 * pass the check; the loser's insert then breaks the unique constraint behind the check, which {@link ProblemMapper}
 * answers with the same problem, by the constraint's name (migration V1).
 */
public final class Taken extends ApiException {

    private static final String SLUG = "slug_taken";
    private static final String VOUCHER_CODE = "voucher_code_taken";
    private static final String SEAT = "seat_exists";
    private static final String ALLOTMENT = "allotment_exists";

    private static final Map<String, Supplier<Taken>> BY_CONSTRAINT = Map.of(
            "events_slug_key", () -> new Taken(SLUG, "An event with this slug exists."),
            "vouchers_event_code", () -> new Taken(VOUCHER_CODE,
                    "A voucher with this code exists in this event (codes ignore case)."),
            "organizers_slug_key", () -> new Taken(SLUG, "An organizer with this slug exists."),
            "channels_organizer_slug", () -> new Taken(SLUG, "The organizer has a channel with this slug."),
            "seats_event_guid", () -> new Taken(SEAT, "A seat of this request exists already."),
            "seats_date_guid", () -> new Taken(SEAT, "A seat of this request exists already on its date."),
            "allotments_quota_channel", () -> new Taken(ALLOTMENT, "The quota has an allotment for this channel."),
            "waiting_list_entries_item_email", () -> new Taken("already_waiting",
                    "This email waits for this item already, or holds its offer."));

    private Taken(String code, String detail) {
        super(409, code, "Conflict", detail);
    }

    public static Taken slug(String slug) {
        return new Taken(SLUG, "An event with slug '" + slug + "' exists.");
    }

    public static Taken organizer(String slug) {
        return new Taken(SLUG, "An organizer with slug '" + slug + "' exists.");
    }

    public static Taken channel(String slug) {
        return new Taken(SLUG, "The organizer has a channel with slug '" + slug + "'.");
    }

    public static Taken allotment(String channel) {
        return new Taken(ALLOTMENT,
                "The quota has an allotment for channel '" + channel + "'; change its size instead.");
    }

    public static Taken voucherCode(String code) {
        return new Taken(VOUCHER_CODE,
                "A voucher with code '" + code + "' exists in this event (codes ignore case).");
    }

    public static Taken seats(List<String> guids) {
        return new Taken(SEAT, "These seats exist already: " + guids);
    }

    /** The problem a violation of {@code constraint} means, if it is one of the constraints behind these checks. */
    static Optional<Taken> byConstraint(String constraint) {
        return Optional.ofNullable(BY_CONSTRAINT.get(constraint)).map(Supplier::get);
    }
}

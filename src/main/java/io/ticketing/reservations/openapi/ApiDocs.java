package io.ticketing.reservations.openapi;

/**
 * The problem codes an operation can answer besides those every operation shares ({@link ApiDocument}), for the
 * {@value ApiDocument#CODES} extension of its {@code @APIResponse}s: space-separated.
 */
public final class ApiDocs {

    public static final String CODES = ApiDocument.CODES;

    /** What a claim on capacity can be refused with (the codes of {@code ReservationConflict}). */
    public static final String SOLD_OUT = "quota_exhausted seat_unavailable seat_required seat_not_allowed"
            + " voucher_invalid voucher_expired voucher_exhausted buyer_limit buyer_required date_required"
            + " date_unavailable item_unavailable";

    public static final String SOLD_OUT_DESCRIPTION = "Not available: sold out, taken or not allowed. `code` and the"
            + " members `item_id`, `quota_id`, `seat_guid` or `voucher_code` say which; do not retry.";

    private ApiDocs() {
    }
}

package io.ticketing.reservations.inventory;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the waiting list keeps back in a quota (contract section 9), as {@link QuotaCounter} reads it from migration
 * V31's {@code waiting_kept}: every waiting entry of an active item sold without seats (and bringing only active
 * items), its quantity times the places one position of its item takes in the quota (what a bundle brings included:
 * section 3); and what each running offer of such a bundle keeps for what the bundle brings, by the offer's voucher,
 * which is its holder's to take.
 */
record WaitingKept(long total, Map<Long, Long> byOffer) {

    private static final WaitingKept NOTHING = new WaitingKept(0, Map.of());

    /** "kept;voucher:places,..." as V31 writes it, or null where no entry is open. */
    static WaitingKept parse(String column) {
        if (column == null) {
            return NOTHING;
        }
        int offers = column.indexOf(';');
        long waiting = Long.parseLong(offers < 0 ? column : column.substring(0, offers));
        if (offers < 0) {
            return new WaitingKept(waiting, Map.of());
        }
        Map<Long, Long> byOffer = new TreeMap<>();
        long kept = waiting;
        for (String offer : column.substring(offers + 1).split(",")) {
            int colon = offer.indexOf(':');
            long places = Long.parseLong(offer.substring(colon + 1));
            byOffer.put(Long.parseLong(offer.substring(0, colon)), places);
            kept += places;
        }
        return new WaitingKept(kept, Map.copyOf(byOffer));
    }
}

package io.ticketing.reservations.checkin;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A check-in list as the API shows it, with its counts as its scans leave them: {@code positions}, the tickets valid
 * on it; {@code inside}, those entered and not exited.
 */
public record CheckinListView(long id, String name, @Schema(nullable = true) List<Long> items,
        @Schema(nullable = true) Long dateId, boolean allowPending, boolean allowMultipleEntries,
        boolean allowEntryAfterExit, long positions, long inside, long version) {

    static CheckinListView of(CheckinList list, CheckinRows.Counts counts) {
        return new CheckinListView(list.id, list.name, list.items, list.dateId, list.allowPending,
                list.allowMultipleEntries, list.allowEntryAfterExit, counts.positions(), counts.inside(),
                list.version);
    }
}

package io.ticketing.reservations.allotment;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An allotment as the API shows it; what it keeps now is in the quota's availability. */
public record AllotmentView(long id, long quotaId, String channel, int size,
        @Schema(nullable = true, implementation = String.class, format = "date-time") Instant releaseAt,
        Instant createdAt, long version) {

    static AllotmentView of(Allotment allotment) {
        return new AllotmentView(allotment.id, allotment.quotaId, allotment.channel, allotment.size,
                allotment.releaseAt, allotment.createdAt, allotment.version);
    }
}

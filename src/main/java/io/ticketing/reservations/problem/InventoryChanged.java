package io.ticketing.reservations.problem;

import java.time.Duration;

/**
 * The inventory changed under a flow between what it read and what it locked or wrote: an admin put an item in a
 * quota the flow had not locked, or deleted a row it refers to. Nothing was written. The service retries such a
 * transaction itself; a client hears of it (HTTP 503 {@code inventory_changed}) only when it kept happening.
 */
public class InventoryChanged extends ApiException {

    public InventoryChanged() {
        super(503, "inventory_changed", "Conflict with a concurrent change",
                "The inventory changed while it was being reserved, several times in a row. Nothing was changed;"
                        + " retry the request.");
        retryAfter(Duration.ofSeconds(1));
    }

    /**
     * Whether {@code failure} is such a change: this exception, or a foreign key violation (deletes take no lock
     * and rely on the foreign keys, SQLSTATE 23503), after which a retry gets the answer that now holds.
     */
    public static boolean isCause(Throwable failure) {
        return failure instanceof InventoryChanged || ProblemMapper.sqlState(failure, FOREIGN_KEY_VIOLATION);
    }

    private static final String FOREIGN_KEY_VIOLATION = "23503";
}

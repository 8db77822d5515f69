package io.ticketing.reservations.locking;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "lock")
public interface LockConfig {

    /** The bound on acquiring all locks of one transaction ({@code LOCK_TIMEOUT}). */
    @WithDefault("3s")
    Duration timeout();

    /**
     * The longest a durable transaction may run before it is rolled back ({@code LOCK_TRANSACTION_TIMEOUT}).
     * Holds are trusted without a re-check only when further than this from their deadline.
     */
    @WithDefault("30s")
    Duration transactionTimeout();

    /** What a client that got lock_timeout is told to wait before retrying ({@code LOCK_RETRY_AFTER}). */
    @WithDefault("1s")
    Duration retryAfter();
}

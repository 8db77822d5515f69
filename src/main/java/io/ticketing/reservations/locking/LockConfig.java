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

    /**
     * How many requests of one event that may wait for its locks hold a connection at once on a replica
     * ({@code LOCK_WRITERS_PER_EVENT}); the others wait in {@link EventGate}. Keep it below the pool's size
     * ({@code DB_POOL_MAX_SIZE}), so that an event whose lock is held leaves connections to everything else.
     */
    @WithDefault("2")
    int writersPerEvent();

    /**
     * How many requests of one event that may wait for its locks are on request threads at once on a replica
     * ({@code LOCK_REQUESTS_PER_EVENT}); the others wait in {@link EventGate} on no thread. Keep it below the number
     * of request threads ({@code WORKER_THREADS}), so that an event whose lock is held leaves threads to the rest.
     * Those on threads wait for one batch of their event ({@code ClaimBatches}): the larger it may be, the more a
     * lock hold sells.
     */
    @WithDefault("48")
    int requestsPerEvent();

    /** What a client that got lock_timeout is told to wait before retrying ({@code LOCK_RETRY_AFTER}). */
    @WithDefault("1s")
    Duration retryAfter();
}

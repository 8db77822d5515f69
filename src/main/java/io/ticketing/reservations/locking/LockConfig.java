package io.ticketing.reservations.locking;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "lock")
public interface LockConfig {

    /** The bound on acquiring all locks of one transaction ({@code LOCK_TIMEOUT}). */
    @WithDefault("3s")
    Duration timeout();

    /** What a client that got lock_timeout is told to wait before retrying ({@code LOCK_RETRY_AFTER}). */
    @WithDefault("1s")
    Duration retryAfter();
}

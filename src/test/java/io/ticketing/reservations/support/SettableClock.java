package io.ticketing.reservations.support;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

/** The service's clock in every test: the system's, until a test sets it; {@link #reset} after use. */
@Alternative
@Priority(1)
@Singleton
public class SettableClock extends Clock {

    private volatile Instant fixed;

    public void set(Instant instant) {
        fixed = instant;
    }

    public void reset() {
        fixed = null;
    }

    @Override
    public Instant instant() {
        Instant now = fixed;
        return now == null ? Instant.now() : now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the service's clock is UTC");
    }
}

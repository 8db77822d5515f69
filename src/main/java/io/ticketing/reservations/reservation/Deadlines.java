package io.ticketing.reservations.reservation;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Deadlines of holds and orders: whole seconds, rounded up so a hold lasts at least its TTL. Whole seconds let
 * the usage counters (migration V5) drop an expired hold exactly at its deadline.
 */
@ApplicationScoped
public class Deadlines {

    private final Clock clock;

    Deadlines(Clock clock) {
        this.clock = clock;
    }

    public Instant now() {
        return clock.instant();
    }

    public Instant inSeconds(int seconds) {
        Instant now = now();
        Instant second = now.truncatedTo(ChronoUnit.SECONDS);
        return (second.equals(now) ? second : second.plusSeconds(1)).plusSeconds(seconds);
    }
}

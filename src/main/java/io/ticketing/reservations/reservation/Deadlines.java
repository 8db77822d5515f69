package io.ticketing.reservations.reservation;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Deadlines of holds and orders: whole seconds, rounded up so a hold lasts at least its TTL. Whole seconds let
 * the usage counters (migration V5) drop an expired hold exactly at its deadline.
 */
public final class Deadlines {

    private Deadlines() {
    }

    public static Instant inSeconds(int seconds) {
        Instant now = Instant.now();
        Instant second = now.truncatedTo(ChronoUnit.SECONDS);
        return (second.equals(now) ? second : second.plusSeconds(1)).plusSeconds(seconds);
    }
}

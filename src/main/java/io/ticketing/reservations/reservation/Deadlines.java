package io.ticketing.reservations.reservation;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Deadlines of holds and orders, at the microsecond precision PostgreSQL stores, so responses match reads. */
public final class Deadlines {

    private Deadlines() {
    }

    public static Instant inSeconds(int seconds) {
        return Instant.now().truncatedTo(ChronoUnit.MICROS).plusSeconds(seconds);
    }
}

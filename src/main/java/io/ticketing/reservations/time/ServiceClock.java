package io.ticketing.reservations.time;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkus.arc.DefaultBean;

/**
 * The service's one clock: every time the service itself decides (a hold's or an order's deadline, whether a
 * voucher has expired, a webhook's timestamp) comes from the injected {@link Clock}, which a test can replace.
 * Counting what is live is PostgreSQL's business: statements compare deadlines with the transaction's
 * {@code now()}, on the database's clock, so that every replica counts alike.
 */
@Singleton
class ServiceClock {

    @Produces
    @Singleton
    @DefaultBean
    Clock clock() {
        return Clock.systemUTC();
    }
}

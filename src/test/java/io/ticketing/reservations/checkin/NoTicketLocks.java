package io.ticketing.reservations.checkin;

import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.ticketing.reservations.jdbc.Jdbc;

/** Check-in taking no row lock on the ticket, selected only by {@code SkipLocking}. */
@Alternative
@Singleton
public class NoTicketLocks extends CheckinRows {

    @Inject
    NoTicketLocks(Jdbc jdbc) {
        super(jdbc);
    }

    @Override
    protected String ticketLock() {
        return "";
    }
}

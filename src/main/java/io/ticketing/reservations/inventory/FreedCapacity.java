package io.ticketing.reservations.inventory;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.event.Event;

/**
 * What the flows that free capacity call, in their transaction: an event with its waiting list on hears of it at
 * once ({@link CapacityFreed}); one with the list off, whose entries may still wait, at the list's next sweep.
 */
@ApplicationScoped
public class FreedCapacity {

    private final jakarta.enterprise.event.Event<CapacityFreed> freed;

    FreedCapacity(jakarta.enterprise.event.Event<CapacityFreed> freed) {
        this.freed = freed;
    }

    public void of(Event event) {
        if (event.waitingListEnabled) {
            freed.fire(new CapacityFreed(event.id));
        }
    }
}

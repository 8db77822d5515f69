package io.ticketing.reservations.availability;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a resource whose writes never change what an event has available (queue tickets, buyer tokens, waiting list
 * entries): they leave the storefront's kept availability as it is ({@link ChangedEvents}), which a rush of them
 * would otherwise keep empty.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface AvailabilityUnchanged {
}

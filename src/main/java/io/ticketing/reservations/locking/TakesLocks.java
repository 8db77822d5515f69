package io.ticketing.reservations.locking;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an endpoint whose flow may wait for its event's advisory locks: it passes {@link EventGate} first. The
 * endpoint's path names the event as {@code {event}}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface TakesLocks {
}

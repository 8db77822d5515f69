package io.ticketing.reservations.idempotency;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An operation whose flow may be decided together with others in one durable transaction
 * ({@code reservation/ClaimBatches}). With an {@code Idempotency-Key}, that transaction claims the key and records
 * the answer ({@link KeysInBatches}), so the change and its record commit together as for any keyed request; where
 * the request cannot join a batch, {@link KeyedRequest.RunAlone} sends it back to run in a transaction of its own.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface DecidedInBatches {
}

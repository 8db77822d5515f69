package io.ticketing.reservations.idempotency;

/**
 * An answer holding a secret that is shown once and stored only as a hash (a new API token): its
 * {@code Idempotency-Key} record keeps, and a replay answers, {@link #withoutSecret} instead.
 */
public interface ShownOnce {

    Object withoutSecret();
}

package io.ticketing.reservations.idempotency;

/**
 * A request body naming the cart it acts on (a checkout's), whose id, known only to its buyer, scopes a storefront's
 * {@code Idempotency-Key} as a cart in the path does.
 */
public interface NamesACart {

    String cartId();
}

package io.ticketing.reservations.inventory;

/**
 * Capacity of an event came free: a cancel, an expiry, a removed hold, a larger quota, a voucher that blocks less.
 * Fired, as a CDI event, in the transaction that frees it, so that its waiting list is offered it first (contract
 * section 9) if and only if that transaction commits.
 */
public record CapacityFreed(long eventId) {
}

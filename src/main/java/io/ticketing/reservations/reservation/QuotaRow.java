package io.ticketing.reservations.reservation;

/** A quota as a flow sees it once its locks are held: the size is null when unlimited. */
record QuotaRow(long id, String name, Integer size) {

    boolean isFinite() {
        return size != null;
    }
}

package io.ticketing.reservations.idempotency;

import jakarta.enterprise.context.RequestScoped;

/** The key of this request, while its interceptor leaves claiming and recording it to a batch. */
@RequestScoped
class DeferredKey {

    private KeyedRequest key;

    KeyedRequest get() {
        return key;
    }

    void set(KeyedRequest key) {
        this.key = key;
    }
}

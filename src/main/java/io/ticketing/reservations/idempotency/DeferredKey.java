package io.ticketing.reservations.idempotency;

import jakarta.enterprise.context.RequestScoped;

/**
 * The key of this request, while its interceptor leaves claiming and recording it to a batch, and whether a batch
 * took it: a refusal before that was decided with the key unclaimed, one after it with the key claimed.
 */
@RequestScoped
class DeferredKey {

    private KeyedRequest key;
    private boolean taken;

    void set(KeyedRequest key) {
        this.key = key;
        this.taken = false;
    }

    KeyedRequest take() {
        taken = key != null;
        return key;
    }

    boolean taken() {
        return taken;
    }
}

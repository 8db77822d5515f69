package io.ticketing.reservations.idempotency;

/**
 * A request carrying an {@code Idempotency-Key}: who sent it (a hash of its token), the key, and a hash of what it
 * asks (endpoint, path and body), which tells a replay from a reuse of the key for something else.
 */
public record KeyedRequest(String caller, String key, String requestHash) {

    /** The caller's key: two requests with the same must not both run. */
    public String identity() {
        return caller + ' ' + key;
    }

    /**
     * Thrown where a request whose key its interceptor left to a batch ({@link DecidedInBatches}) cannot be decided in
     * one: its interceptor then runs it in a transaction of its own that claims the key, as any keyed request.
     */
    public static final class RunAlone extends RuntimeException {

        public RunAlone() {
            super("a keyed request that runs alone", null, false, false);
        }
    }
}

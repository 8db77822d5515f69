package io.ticketing.reservations.reservation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One queue of {@link ClaimBatches}: its waiting requests, whether a batch of them is running, and the keys of both.
 */
final class BatchQueue {

    /** How a request entered its queue. */
    enum Entered {
        /** Nothing ran: it leads the next batch at once. */
        LEADS,
        /** It waits for the batch that runs to end. */
        WAITS,
        /** A request with its {@code Idempotency-Key} waits or runs already: it is answered that, as for a key in use. */
        KEY_IN_USE
    }

    @SuppressWarnings("rawtypes")
    private final ArrayDeque<BatchMember> waiting = new ArrayDeque<>();
    private final Set<String> keysInFlight = new HashSet<>();
    private boolean running;

    synchronized Entered enter(BatchMember<?, ?> request) {
        if (request.key != null && !keysInFlight.add(request.key.identity())) {
            return Entered.KEY_IN_USE;
        }
        waiting.add(request);
        if (running) {
            return Entered.WAITS;
        }
        running = true;
        request.lead();
        return Entered.LEADS;
    }

    synchronized int size() {
        return waiting.size();
    }

    /** Leaves the queue, unless the request was told to lead the next batch, or is in one. */
    synchronized boolean withdraw(BatchMember<?, ?> request) {
        if (request.leads() || !waiting.remove(request)) {
            return false;
        }
        if (request.key != null) {
            keysInFlight.remove(request.key.identity());
        }
        return true;
    }

    @SuppressWarnings("rawtypes")
    synchronized List<BatchMember> takeAll() {
        List<BatchMember> batch = new ArrayList<>(waiting);
        waiting.clear();
        return batch;
    }

    /** {@code batch} has ended: the longest waiting request leads the next one, or the queue is idle. */
    @SuppressWarnings("rawtypes")
    synchronized void passOn(List<BatchMember> batch) {
        batch.stream().filter(request -> request.key != null)
                .forEach(request -> keysInFlight.remove(request.key.identity()));
        BatchMember<?, ?> next = waiting.peek();
        if (next == null) {
            running = false;
        } else {
            next.lead();
        }
    }
}

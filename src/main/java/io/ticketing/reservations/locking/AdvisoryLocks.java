package io.ticketing.reservations.locking;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.Startup;
import io.ticketing.reservations.jdbc.Jdbc;

/**
 * The lock engine: the one place that locks inventory (contract section 2). Rules for every caller:
 * <ol>
 * <li>Call {@link #lockObjects} exactly once, inside a {@link DurableTransaction} method, before counting
 * availability, with every object the transaction makes less available: each finite quota whose usage
 * grows, each voucher whose usage grows, each seat it takes. A second call, a call outside a durable
 * transaction, or one inside a transaction begun within it fails with {@link IllegalStateException}.</li>
 * <li>Freeing capacity and reading take no lock. A change that cannot know what it touches calls
 * {@link #lockEvent}, or {@link #lockDateThen} when all it can touch belongs to one date of the event.</li>
 * <li>The objects are locked exclusively, their event and their dates (contract section 10) shared; with more than
 * {@value #MAX_EXCLUSIVE_OBJECTS} distinct objects only their scope is locked, exclusively: their one date, or else
 * the event. Each object says its date ({@link LockTarget#date}); the call answers what it holds ({@link Held}), and a
 * flow counts only what that covers.</li>
 * <li>All keys are taken in ascending order by one statement, so no two transactions can deadlock.</li>
 * <li>The whole acquisition waits at most {@code lock.timeout} from the request's arrival at {@link EventGate}
 * (which endpoints marked {@link TakesLocks} pass); then {@link LockTimeoutException}
 * (HTTP 503 {@code lock_timeout}) rolls the transaction back.</li>
 * </ol>
 * Key layout: {@link LockTarget}. The statement: {@code acquire_advisory_locks} in migration V2.
 * At READ COMMITTED every statement after the locks sees what the previous holder committed. The statements that
 * follow can be sent with the locks ({@link #lockObjectsThen}): the holder then waits for no round trip to the
 * service before them.
 */
// Created at start, so that its metrics are published (at zero) before the first lock: alerts need the series.
@Startup
@ApplicationScoped
public class AdvisoryLocks {

    public static final int MAX_EXCLUSIVE_OBJECTS = 20;

    private static final String ACQUIRE = "SELECT acquire_advisory_locks(:keys, :shared, :budget_ms)";
    private static final String LOCK_NOT_AVAILABLE = "55P03";
    private static final Object LOCKS_TAKEN = AdvisoryLocks.class;

    private final Jdbc jdbc;
    private final TransactionSynchronizationRegistry registry;
    private final DurableTransactions transactions;
    private final LockConfig config;
    private final GatePass pass;
    private final Timer waitTime;
    private final Counter timeouts;
    private final Tracer tracer;

    AdvisoryLocks(Jdbc jdbc, TransactionSynchronizationRegistry registry, DurableTransactions transactions,
            LockConfig config, GatePass pass, MeterRegistry meters, Tracer tracer) {
        this.jdbc = jdbc;
        this.registry = registry;
        this.transactions = transactions;
        this.config = config;
        this.pass = pass;
        this.tracer = tracer;
        this.waitTime = Timer.builder("inventory.lock.wait")
                .description(
                        "Time spent acquiring the advisory locks of one transaction, with the statements sent with them")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .register(meters);
        this.timeouts = Counter.builder("inventory.lock.timeouts")
                .description("Requests that did not get their locks within lock.timeout")
                .register(meters);
    }

    /** Locks {@code objects} exclusively and their event and dates shared (see {@link #lockObjectsThen}). */
    public Held lockObjects(long eventId, Collection<LockTarget> objects) {
        return lockObjectsThen(eventId, List.of(), objects, jdbc.roundTrip());
    }

    /**
     * Locks {@code objects} exclusively, their event shared, and shared each date of {@code dates} and of the objects
     * (contract sections 2 and 10), then sends the queries of {@code then} in the same round trip, each a statement of
     * its own that sees what the previous holder committed. With more than {@value #MAX_EXCLUSIVE_OBJECTS} objects
     * it locks their scope exclusively instead: their date, when all but at most {@value #MAX_EXCLUSIVE_OBJECTS}
     * belong to that one date (those of the whole event, a buyer say, are then locked each), else the event. If the
     * locks time out, none of the queries runs.
     */
    public Held lockObjectsThen(long eventId, Collection<Long> dates, Collection<LockTarget> objects,
            Jdbc.RoundTrip then) {
        Set<LockTarget> exclusive = new HashSet<>(objects);
        Set<Long> touched = new TreeSet<>(dates);
        exclusive.forEach(object -> {
            if (object.date() != null) {
                touched.add(object.date());
            }
        });
        if (exclusive.size() <= MAX_EXCLUSIVE_OBJECTS) {
            Keys keys = new Keys().shared(LockTarget.event(eventId));
            touched.forEach(date -> keys.shared(LockTarget.date(date)));
            exclusive.forEach(keys::exclusive);
            acquire(keys, exclusive.size(), then);
            return new Held(false, null, exclusive);
        }
        if (touched.size() == 1) {
            return lockDateThen(eventId, touched.iterator().next(), exclusive, then);
        }
        return lockEventThen(eventId, then);
    }

    /** Locks the whole event exclusively: for changes that cannot tell which objects they touch. */
    public Held lockEvent(long eventId) {
        return lockEventThen(eventId, jdbc.roundTrip());
    }

    /** {@link #lockEvent}, then the queries of {@code then} in the same round trip, as in {@link #lockObjectsThen}. */
    public Held lockEventThen(long eventId, Jdbc.RoundTrip then) {
        acquire(new Keys().exclusive(LockTarget.event(eventId)), 0, then);
        return new Held(true, null, Set.of());
    }

    /** Locks one date of the event exclusively and the event shared: for changes that cannot tell what they touch. */
    public Held lockDate(long eventId, long dateId) {
        return lockDateThen(eventId, dateId, List.of(), jdbc.roundTrip());
    }

    /**
     * Locks one date of the event exclusively, for a change that cannot tell which of its objects it touches (best
     * available seats on one screening), the event shared, and of {@code objects} those of no date exclusively; then
     * the queries of {@code then}. No other date waits for it. With more than {@value #MAX_EXCLUSIVE_OBJECTS} objects
     * of no date it locks the event exclusively instead.
     */
    public Held lockDateThen(long eventId, long dateId, Collection<LockTarget> objects, Jdbc.RoundTrip then) {
        Set<LockTarget> outside = new HashSet<>();
        objects.stream().filter(object -> object.date() == null || object.date() != dateId).forEach(outside::add);
        if (outside.size() > MAX_EXCLUSIVE_OBJECTS || outside.stream().anyMatch(object -> object.date() != null)) {
            return lockEventThen(eventId, then);
        }
        Keys keys = new Keys().shared(LockTarget.event(eventId)).exclusive(LockTarget.date(dateId));
        outside.forEach(keys::exclusive);
        acquire(keys, outside.size(), then);
        return new Held(false, dateId, outside);
    }

    /**
     * What one transaction's lock call holds. An object is covered by its own lock, by its date's exclusive lock, or
     * by the event's: a flow counts only what it holds.
     */
    public record Held(boolean eventExclusive, Long dateExclusive, Set<LockTarget> objects) {

        public boolean covers(LockTarget object) {
            return eventExclusive || objects.contains(object)
                    || dateExclusive != null && dateExclusive.equals(object.date());
        }

        public boolean coversAll(Collection<LockTarget> needed) {
            return needed.stream().allMatch(this::covers);
        }
    }

    /** The keys of one lock call, each shared or exclusive; the statement sorts them. */
    private static final class Keys {

        private final List<Long> keys = new ArrayList<>();
        private final List<Boolean> shared = new ArrayList<>();

        Keys shared(LockTarget target) {
            keys.add(target.key());
            shared.add(true);
            return this;
        }

        Keys exclusive(LockTarget target) {
            keys.add(target.key());
            shared.add(false);
            return this;
        }

        boolean eventExclusive() {
            return !shared.get(0);
        }
    }

    /**
     * Takes {@code keys} in one statement, traced (in a traced request) as a span of its own
     * ({@code inventory.lock.acquire}) with the
     * number of objects asked for, whether the event was locked exclusively, the time already spent at the gate
     * and the wait here.
     */
    private void acquire(Keys lockKeys, int objects, Jdbc.RoundTrip then) {
        Long[] keys = lockKeys.keys.toArray(Long[]::new);
        Boolean[] shared = lockKeys.shared.toArray(Boolean[]::new);
        claimTransaction();
        Duration budget = budget();
        // Only inside a traced request: a span nobody records would cost every sale its building for nothing.
        Span span = Span.current().isRecording()
                ? tracer.spanBuilder("inventory.lock.acquire")
                        .setAttribute("inventory.lock.objects", objects)
                        .setAttribute("inventory.lock.event_exclusive", lockKeys.eventExclusive())
                        .setAttribute("inventory.lock.gate_wait_ms", config.timeout().minus(budget).toMillis())
                        .startSpan()
                : Span.getInvalid();
        long started = System.nanoTime();
        try {
            // Whole milliseconds, rounded up: rounded down, a writer heard lock_timeout a fraction of one before
            // the bound.
            long budgetMillis = budget.plusNanos(999_999).toMillis();
            if (budgetMillis <= 0) {
                throw timedOut();
            }
            Jdbc.Statement acquire = acquisition(jdbc, keys, shared, Math.toIntExact(budgetMillis));
            try {
                then.sendAfter(acquire);
            } catch (PersistenceException e) {
                if (e.getCause() instanceof SQLException cause && LOCK_NOT_AVAILABLE.equals(cause.getSQLState())) {
                    throw timedOut();
                }
                throw new PersistenceException("could not take advisory locks " + Arrays.toString(keys), e);
            } finally {
                waitTime.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            }
        } catch (RuntimeException e) {
            span.setStatus(StatusCode.ERROR, e instanceof LockTimeoutException ? "lock_timeout" : e.getMessage());
            throw e;
        } finally {
            span.setAttribute("inventory.lock.wait_ms", (System.nanoTime() - started) / 1_000_000);
            span.end();
        }
    }

    /**
     * The statement that takes the keys. A test profile replaces it with one that takes none, to show that every
     * contention test fails without the locks (as pretix's {@code skip-locking} does).
     */
    protected Jdbc.Statement acquisition(Jdbc jdbc, Long[] keys, Boolean[] shared, int budgetMs) {
        return jdbc.statement(ACQUIRE).set("keys", keys).set("shared", shared).set("budget_ms", budgetMs);
    }

    /**
     * In an HTTP request, the bound counts from its arrival at {@link EventGate}; an endpoint that locks without
     * passing the gate is a programming error. Elsewhere (jobs, tests calling services) it counts from here.
     */
    private Duration budget() {
        if (!Arc.container().requestContext().isActive()) {
            return config.timeout();
        }
        return pass.left(config.timeout()).orElseThrow(() -> new IllegalStateException(
                "an endpoint that takes locks must be marked @TakesLocks, so that it passes its event's gate"));
    }

    /** What is left of this request's lock bound (see {@link #budget}); waiting for it elsewhere counts too. */
    public Duration remainingBudget() {
        return budget();
    }

    /** Every lock_timeout, whether it came in the database or at {@link EventGate}: counted, then thrown. */
    public LockTimeoutException timedOut() {
        timeouts.increment();
        return new LockTimeoutException(config.timeout(), config.retryAfter());
    }

    private void claimTransaction() {
        try {
            if (!transactions.isDurable()) {
                throw new IllegalStateException(
                        "advisory locks must be taken in the outermost transaction of a @DurableTransaction method");
            }
        } catch (SystemException e) {
            throw new IllegalStateException("transaction status unavailable", e);
        }
        if (registry.getResource(LOCKS_TAKEN) != null) {
            throw new IllegalStateException("advisory locks were already taken in this transaction; "
                    + "collect every object first and lock them with one call");
        }
        registry.putResource(LOCKS_TAKEN, Boolean.TRUE);
    }
}

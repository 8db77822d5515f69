package io.ticketing.reservations.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.ticketing.reservations.availability.StorefrontAvailability;
import io.ticketing.reservations.cart.AddProbe;
import io.ticketing.reservations.order.OrderService;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.OracleCheck;
import io.ticketing.reservations.support.Sql;
import io.ticketing.reservations.waitinglist.Offers;

/**
 * The invariant itself, against every operation in any order, where features meet: random sequences
 * ({@link PropertyRun}) of adds, bursts of concurrent buyers raced with {@link RacePauses}, removals, extensions,
 * checkouts, payments, cancels and order changes ({@link SaleSteps}, {@link OrderChangeSteps}), the waiting list
 * ({@link WaitingListSteps}), time passing past holds and deadlines, and admin edits of every field that counts
 * ({@link AdminSteps}), on an event without dates and one with dates, passes, bundles, seats and vouchers of every
 * kind ({@link PropertyEvents}), all small enough that random steps meet at the edges. After every step the
 * {@link Oracle}: the service's availability equals the contract's, no quota holds more than its size unless an
 * admin edit shrank it below, after which it never grows, and no other promise is broken.
 * {@link OraclePropertyTest} runs it with the locks, where nothing is broken; {@link OraclePropertyWithoutLocksTest}
 * without, where the oracle finds an oversell.
 *
 * <p>{@code -Dproperty.steps=N} runs a longer sequence, {@code -Dproperty.seed=S} replays one, and
 * {@code -Dproperty.seeds=K} runs K sequences, from seeds S, S+1, ..., in one JVM (the soak): a failure names the
 * seed and step to replay.
 */
@OracleCheck.SizesChecked("after a step that only frees, a cancel may give a place back both to the blocking voucher"
        + " it used and to its channel's allotment (contract section 12), which then keep it twice: PropertyRun excuses"
        + " that, step by step, and nothing else")
abstract class OracleProperty {

    @Inject
    Sql sql;

    @Inject
    RacePauses pauses;

    @Inject
    Offers offers;

    @Inject
    OrderService orders;

    @Inject
    AddProbe adds;

    @Inject
    StorefrontAvailability availability;

    /** Whether the advisory locks are on in this test's service. */
    abstract boolean locking();

    @Test
    void randomSalesAndEditsNeverPassTheOracle() {
        long first = Long.getLong("property.seed", System.nanoTime());
        int steps = Integer.getInteger("property.steps", 240);
        int seeds = Integer.getInteger("property.seeds", 1);
        List<String> failures = new ArrayList<>();
        for (long seed = first; seed < first + seeds; seed++) {
            long started = System.nanoTime();
            PropertyRun run = new PropertyRun(seed, locking(), sql, pauses, offers, orders, adds,
                    availability::changed);
            run.run(steps);
            System.out.printf("%s: %d steps from seed %d in %d s, %d promises broken%n", getClass().getSimpleName(),
                    run.done.size(), seed, (System.nanoTime() - started) / 1_000_000_000, run.broken.size());
            // The first broken promise decides either run: a failure with the locks, the twin's proof without.
            if (run.broken.isEmpty() == locking()) {
                continue;
            }
            String failure = "seed " + seed + ": " + (locking() ? run.broken : "no promise broken") + "; replay with"
                    + " -Dproperty.seed=" + seed + " -Dproperty.steps=" + run.done.size();
            System.out.println(failure + "; steps:");
            for (int step = 0; step < run.done.size(); step++) {
                System.out.println("  " + (step + 1) + ". " + run.done.get(step));
            }
            failures.add(failure);
        }
        if (locking()) {
            assertThat(failures).as("runs that broke a promise (their steps are printed above)").isEmpty();
        } else {
            assertThat(failures).as("without locks the oracle must find an oversell in every run").isEmpty();
        }
    }
}

package io.ticketing.reservations.reservation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

import io.ticketing.reservations.cart.AddProbe;
import io.ticketing.reservations.order.OrderService;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Oracle.QuotaUsage;
import io.ticketing.reservations.support.Sql;
import io.ticketing.reservations.waitinglist.Offers;

/**
 * One sequence of random steps from one seed, on two fresh events ({@link PropertyEvents}), each step followed by the
 * {@link Oracle} on the event it acted on; it stops at the first broken promise. A step is drawn for either event
 * alike, so every flow meets every feature: dates, passes, bundles, seats, vouchers of every kind, waiting lists,
 * seating plans, scans at the doors, transfers, buyers and their limits.
 */
final class PropertyRun {

    /** What each step did and how the service answered, in order. */
    final List<String> done = new ArrayList<>();
    /** The promises broken, each with the step after which the oracle found it. */
    final List<String> broken = new ArrayList<>();
    private final Random random;
    private final boolean locking;
    private final Sql sql;
    private final SaleSteps sales;
    private final OrderChangeSteps changes;
    private final AdminSteps admin;
    private final SeatingPlanSteps seatingPlan;
    private final CheckinSteps checkin;
    private final TransferSteps transfers;
    private final WaitingListSteps waitingList;
    private final ShapeSteps shapes;
    private final ReadProbes probes;
    private final PropertyEvent undated;
    private final PropertyEvent dated;
    private final Map<Long, Long> usedBefore = new HashMap<>();
    /** What each quota held, sold and blocked after the step before (section 1's used). */
    private final Map<Long, Long> soldBefore = new HashMap<>();
    /** Whether the current step only frees capacity: a removal, a cancel, time passing. */
    private boolean freeing;
    /** The quota the current step edits, whose size an admin may set below what it holds. */
    private Long edited;

    PropertyRun(long seed, boolean locking, Sql sql, RacePauses pauses, Offers offers, OrderService orders,
            AddProbe adds, Consumer<String> forgetReadings) {
        this.random = new Random(seed);
        this.locking = locking;
        this.sql = sql;
        this.sales = new SaleSteps(random, sql, pauses, orders);
        this.changes = new OrderChangeSteps(random);
        this.admin = new AdminSteps(random);
        this.seatingPlan = new SeatingPlanSteps(random);
        this.checkin = new CheckinSteps(random, sql);
        this.transfers = new TransferSteps(random, sql);
        PropertyEvents events = new PropertyEvents(sql, random, locking);
        this.undated = events.undated();
        this.dated = events.dated();
        this.probes = new ReadProbes(random, sql, adds, () -> {
            forgetReadings.accept(undated.slug);
            forgetReadings.accept(dated.slug);
        });
        this.waitingList = new WaitingListSteps(random, offers, probes);
        this.shapes = new ShapeSteps(random, sql);
        check(undated, "set-up");
        check(dated, "set-up");
    }

    /** Runs {@code steps} steps, or fewer if a promise breaks. */
    void run(int steps) {
        for (int step = 0; step < steps && broken.isEmpty(); step++) {
            // Every run races on both events first, so that the lock-off twin has its chance to oversell.
            PropertyEvent event = step == 0 ? undated : step == 1 ? dated : random.nextBoolean() ? undated : dated;
            edited = null;
            freeing = false;
            String what;
            try {
                what = event + ": " + (step < 2 ? sales.burst(event) : step(event));
            } catch (AssertionError | RuntimeException failed) {
                what = event + ": a step that failed";
                broken.add("in step " + (step + 1) + ": " + failed);
            }
            done.add(what);
            if (broken.isEmpty()) {
                check(event, done.size() + ". " + what);
            }
            if (broken.isEmpty() && locking) {
                String after = "after " + done.size() + ". " + what + ": ";
                probes.after(event).forEach(promise -> broken.add(after + promise));
            }
        }
    }

    /** One random step on {@code event}; returns what it did and how the service answered. */
    private String step(PropertyEvent event) {
        int dice = random.nextInt(100);
        if (dice < 15) {
            return sales.add(event);
        } else if (dice < 20) {
            return sales.burst(event);
        } else if (dice < 24) {
            freeing = true;
            return sales.remove(event);
        } else if (dice < 27) {
            return sales.extend(event);
        } else if (dice < 35) {
            return sales.checkout(event);
        } else if (dice < 37) {
            return sales.pay(event);
        } else if (dice < 40) {
            freeing = true;
            return sales.cancel(event);
        } else if (dice < 48) {
            return changeOrder(event);
        } else if (dice < 51) {
            String transferred = transfers.transfer(event);
            return transferred == null ? sales.checkout(event) : transferred;
        } else if (dice < 56) {
            // An event with dates has no waiting list (contract section 10): it changes an order instead.
            return event.dated() ? changeOrder(event) : waitingList.step(event);
        } else if (dice < 62) {
            freeing = true;
            return sales.timePasses(event);
        } else if (dice < 71) {
            return admin.voucher(event);
        } else if (dice < 75) {
            edited = event.any(event.quotas);
            return admin.quota(event, edited);
        } else if (dice < 78) {
            return admin.allotment(event, event.any(event.quotas));
        } else if (dice < 81) {
            return admin.item(event);
        } else if (dice < 85) {
            return admin.date(event);
        } else if (dice < 86) {
            return admin.seat(event);
        } else if (dice < 88) {
            return seatingPlan.replace(event);
        } else if (dice < 92) {
            return shapes.step(event);
        } else if (dice < 97) {
            return checkin.scan(event);
        }
        return sales.add(event);
    }

    private String changeOrder(PropertyEvent event) {
        return event.orders.isEmpty() ? sales.checkout(event) : changes.change(event);
    }

    /**
     * The oracle after a step, on the event it acted on (a step on one changes nothing of the other). A quota above
     * its size is broken unless this step edited it (a shrink may put it there), or it was above before and has not
     * grown since, or a step that only frees gave back what a channel's position with a blocking voucher used of both
     * the voucher and the channel's allotment (contract section 12: such a position uses its allotment too, and its
     * cancel gives the use back to both, which then keep its place twice; no more than the size is sold, as what the
     * channel can take falls with what is left for everyone): what it holds, sells and blocks did not grow.
     */
    private void check(PropertyEvent event, String step) {
        Map<Long, QuotaUsage> usage = Oracle.quotas(sql, event.slug);
        for (QuotaUsage quota : usage.values()) {
            boolean grewPastSize = quota.pastItsSize()
                    && quota.committed() > usedBefore.getOrDefault(quota.id(), 0L);
            boolean givenBack = freeing && quota.used() <= soldBefore.getOrDefault(quota.id(), 0L);
            soldBefore.put(quota.id(), quota.used());
            if (grewPastSize && !givenBack && !Long.valueOf(quota.id()).equals(edited)) {
                broken.add("after " + step + ": quota " + quota.id() + " holds " + quota.used() + " and keeps "
                        + quota.kept() + " of " + quota.size());
            }
            usedBefore.put(quota.id(), quota.committed());
        }
        Oracle.brokenPromises(sql, event.slug, usage.keySet())
                .forEach(promise -> broken.add("after " + step + ": " + promise));
        try {
            Oracle.assertServiceAgrees(sql, event.slug);
        } catch (AssertionError disagrees) {
            broken.add("after " + step + ": " + disagrees.getMessage());
        }
    }
}

package io.ticketing.reservations.reservation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

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
    private final Sql sql;
    private final SaleSteps sales;
    private final OrderChangeSteps changes;
    private final AdminSteps admin;
    private final SeatingPlanSteps seatingPlan;
    private final CheckinSteps checkin;
    private final TransferSteps transfers;
    private final WaitingListSteps waitingList;
    private final PropertyEvent undated;
    private final PropertyEvent dated;
    private final Map<Long, Long> usedBefore = new HashMap<>();
    /** The quota the current step edits, whose size an admin may set below what it holds. */
    private Long edited;

    PropertyRun(long seed, boolean locking, Sql sql, RacePauses pauses, Offers offers, OrderService orders) {
        this.random = new Random(seed);
        this.sql = sql;
        this.sales = new SaleSteps(random, sql, pauses, orders);
        this.changes = new OrderChangeSteps(random);
        this.admin = new AdminSteps(random);
        this.seatingPlan = new SeatingPlanSteps(random);
        this.checkin = new CheckinSteps(random, sql);
        this.transfers = new TransferSteps(random, sql);
        this.waitingList = new WaitingListSteps(random, offers);
        PropertyEvents events = new PropertyEvents(sql, random, locking);
        this.undated = events.undated();
        this.dated = events.dated();
        check(undated, "set-up");
        check(dated, "set-up");
    }

    /** Runs {@code steps} steps, or fewer if a promise breaks. */
    void run(int steps) {
        for (int step = 0; step < steps && broken.isEmpty(); step++) {
            // Every run races on both events first, so that the lock-off twin has its chance to oversell.
            PropertyEvent event = step == 0 ? undated : step == 1 ? dated : random.nextBoolean() ? undated : dated;
            edited = null;
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
        }
    }

    /** One random step on {@code event}; returns what it did and how the service answered. */
    private String step(PropertyEvent event) {
        int dice = random.nextInt(100);
        if (dice < 17) {
            return sales.add(event);
        } else if (dice < 23) {
            return sales.burst(event);
        } else if (dice < 28) {
            return sales.remove(event);
        } else if (dice < 31) {
            return sales.extend(event);
        } else if (dice < 40) {
            return sales.checkout(event);
        } else if (dice < 46) {
            return sales.settle(event);
        } else if (dice < 55) {
            return changeOrder(event);
        } else if (dice < 58) {
            String transferred = transfers.transfer(event);
            return transferred == null ? sales.checkout(event) : transferred;
        } else if (dice < 64) {
            // An event with dates has no waiting list (contract section 10): it changes an order instead.
            return event.dated() ? changeOrder(event) : waitingList.step(event);
        } else if (dice < 71) {
            return sales.timePasses(event);
        } else if (dice < 81) {
            return admin.voucher(event);
        } else if (dice < 85) {
            edited = event.any(event.quotas);
            return admin.quota(event, edited);
        } else if (dice < 88) {
            return admin.allotment(event, event.any(event.quotas));
        } else if (dice < 91) {
            return admin.item(event);
        } else if (dice < 96) {
            return admin.date(event);
        } else if (dice < 97) {
            return admin.seat(event);
        } else if (dice < 98) {
            return seatingPlan.replace(event);
        }
        return checkin.scan(event);
    }

    private String changeOrder(PropertyEvent event) {
        return event.orders.isEmpty() ? sales.checkout(event) : changes.change(event);
    }

    /**
     * The oracle after a step, on the event it acted on (a step on one changes nothing of the other). A quota above
     * its size is broken unless this step edited it (a shrink may put it there) or it was above before and has not
     * grown since.
     */
    private void check(PropertyEvent event, String step) {
        Map<Long, QuotaUsage> usage = Oracle.quotas(sql, event.slug);
        for (QuotaUsage quota : usage.values()) {
            boolean grewPastSize = quota.pastItsSize()
                    && quota.committed() > usedBefore.getOrDefault(quota.id(), 0L);
            if (grewPastSize && !Long.valueOf(quota.id()).equals(edited)) {
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

package io.ticketing.reservations.faults;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.ticketing.reservations.bench.Service;

/**
 * (j) A database failover in the middle of a sale (contract section 6, "A database failover loses no sale"): the
 * primary with a synchronous standby, both replicas on a multi-host URL that finds the primary
 * ({@code targetServerType=primary}, as CloudNativePG's {@code -rw} service does in Kubernetes), 16 careful buyers;
 * five seconds in, the primary is killed with -9 and the standby promoted. Every order and hold answered 2xx must be
 * readable afterwards, and nothing answered may be lost, with no 500. Its twin: the standby asynchronous and cut off
 * two seconds before the kill, which must lose answered orders, or the check could not tell.
 */
final class Failover {

    private final FaultSuite suite;
    private final Database primary;

    Failover(FaultSuite suite, Database primary) {
        this.suite = suite;
        this.primary = primary;
    }

    String run(boolean synchronous) throws Exception {
        Database standby = primary.standby(synchronous);
        try {
            Map<String, String> bothHosts = Map.of("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:"
                    + primary.port() + ",127.0.0.1:" + standby.port() + "/postgres?targetServerType=primary");
            List<Service> replicas = suite.replicas(bothHosts, bothHosts);
            FaultSuite.Sale sale = suite.sale(replicas.get(0));
            Shoppers shoppers = sale.shoppers(replicas);
            shoppers.start(16);
            Thread.sleep(5_000); // the sale under way
            if (!synchronous) {
                standby.cutOff();
                Thread.sleep(2_000); // orders the standby never receives
            }
            long killed = System.nanoTime();
            primary.stop(Database.Stop.KILL);
            standby.promote();
            Thread.sleep(8_000); // the sale goes on against the promoted standby
            shoppers.finish();
            long firstSale = shoppers.answeredOrders.stream().mapToLong(Shoppers.Bought::answeredAt)
                    .filter(at -> at > killed).min().orElse(-1);
            String invariants = Invariants.check(standby, sale.id(),
                    shoppers.answeredOrders.stream().map(Shoppers.Bought::orderCode).toList());
            long unreadable = unreadable(replicas.get(1), sale, shoppers);
            boolean lost = invariants.contains("answered order lost");
            boolean clean = shoppers.count500() == 0 && shoppers.unresolved.sum() == 0;
            boolean pass = synchronous ? clean && invariants.equals("all hold") && unreadable == 0 : lost;
            String name = synchronous
                    ? "(j) primary killed -9 and its synchronous standby promoted, 16 clients on a multi-host URL"
                    : "(j, twin) the same with the standby asynchronous and cut off 2 s before the kill: must lose";
            return "| " + name + " | " + shoppers.statuses() + (shoppers.unresolved.sum() > 0
                    ? "; unresolved " + shoppers.unresolved.sum()
                    : "") + " | " + invariants + "; " + unreadable + " of " + shoppers.answeredOrders.size()
                    + " answered orders and their holds unreadable | first order "
                    + (firstSale < 0 ? "never" : (firstSale - killed) / 1_000_000 + " ms") + " after the kill | "
                    + shoppers.longestResolutionMillis.get() + " ms | " + (pass ? "pass" : "FAIL") + " |";
        } finally {
            suite.killReplicas();
            standby.close();
            primary.startAgain(); // the next fault's primary: its own data, whatever the standby took on
            primary.withoutStandby();
        }
    }

    /** Answered orders that cannot be read by their code, and answered holds whose cart is gone without an order. */
    private long unreadable(Service replica, FaultSuite.Sale sale, Shoppers shoppers) throws Exception {
        long missing = 0;
        for (Shoppers.Bought bought : shoppers.answeredOrders) {
            if (status(replica, "/api/v1/events/" + sale.slug() + "/orders/" + bought.orderCode()) != 200) {
                missing++;
            }
        }
        Set<String> checkedOut = shoppers.answeredOrders.stream().map(Shoppers.Bought::cart)
                .collect(Collectors.toSet());
        for (String cart : shoppers.answeredAdds) {
            if (!checkedOut.contains(cart)
                    && status(replica, "/api/v1/events/" + sale.slug() + "/carts/" + cart) != 200) {
                missing++;
            }
        }
        return missing;
    }

    private int status(Service replica, String path) throws Exception {
        return suite.status(replica, path, Service.STOREFRONT);
    }
}

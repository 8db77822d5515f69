package io.ticketing.reservations.faults;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ticketing.reservations.bench.Service;

/**
 * (k) A rolling upgrade in the middle of a sale (docs/operations.md, "Migrations"): the release
 * {@value #PREVIOUS_RELEASE}, ten migrations behind this build (V22 to V31), packaged as {@code -Dservice.app}
 * builds are and named by {@code -Dfaults.previous-app}, sells to 16 careful buyers on a database it migrated itself;
 * this build starts beside it on the same database, applying the missing migrations while the sale goes on, and 16
 * more buyers buy from it; then the previous release is stopped (SIGTERM). Ten rounds by default
 * ({@code -Dfaults.upgrade-rounds}), each on a database of its own: no failed start, no 500 from either release,
 * nothing lost or sold past its limit.
 */
final class RollingUpgrade {

    /** The release the upgrade starts from; V24 of the ten it lacks once deadlocked against its sales. */
    static final String PREVIOUS_RELEASE = "c4769bf";

    private final FaultSuite suite;
    private final Database database;

    RollingUpgrade(FaultSuite suite, Database database) {
        this.suite = suite;
        this.database = database;
    }

    String run() throws Exception {
        String previous = System.getProperty("faults.previous-app");
        if (previous == null) {
            return "| (k) rolling upgrade from " + PREVIOUS_RELEASE + " | not run: package that release (git worktree"
                    + " add ../previous " + PREVIOUS_RELEASE + " && cd ../previous && ./mvnw -DskipTests package) and"
                    + " pass -Dfaults.previous-app=../previous/target/quarkus-app | | | | skipped |";
        }
        int rounds = Integer.getInteger("faults.upgrade-rounds", 10);
        List<String> failedStarts = new ArrayList<>();
        List<String> broken = new ArrayList<>();
        List<Long> readyMillis = new ArrayList<>();
        long errors = 0;
        long unresolved = 0;
        long orders = 0;
        for (int round = 1; round <= rounds; round++) {
            String name = "upgrade_" + round + "_" + System.nanoTime();
            try (Connection sql = DriverManager.getConnection(database.url(), database.username(),
                    database.password()); Statement statement = sql.createStatement()) {
                statement.execute("CREATE DATABASE " + name);
            }
            String url = database.url().replace("/postgres", "/" + name);
            try {
                Service old = Service.start(Path.of(previous), "faults-previous-" + round, url, database.username(),
                        database.password(), Map.of("QUARKUS_LOG_LEVEL", "INFO"));
                suite.started(old);
                FaultSuite.Sale sale = suite.sale(old);
                Shoppers onOld = sale.shoppers(List.of(old));
                onOld.start(16);
                Thread.sleep(3_000); // the previous release selling
                long starting = System.nanoTime();
                Shoppers onNew = null;
                try {
                    Service upgraded = Service.start("faults-upgraded-" + round, url, database.username(),
                            database.password(), Map.of("QUARKUS_LOG_LEVEL", "INFO"));
                    suite.started(upgraded);
                    readyMillis.add((System.nanoTime() - starting) / 1_000_000);
                    onNew = sale.shoppers(List.of(upgraded));
                    onNew.start(16);
                    Thread.sleep(3_000); // both releases selling
                } catch (IllegalStateException | AssertionError failed) {
                    failedStarts.add("round " + round + ": " + failed.getMessage());
                }
                onOld.finish();
                old.terminate();
                List<String> answered = new ArrayList<>(
                        onOld.answeredOrders.stream().map(Shoppers.Bought::orderCode).toList());
                errors += onOld.count500();
                unresolved += onOld.unresolved.sum();
                if (onNew != null) {
                    Thread.sleep(2_000); // the upgraded release alone
                    onNew.finish();
                    answered.addAll(onNew.answeredOrders.stream().map(Shoppers.Bought::orderCode).toList());
                    errors += onNew.count500();
                    unresolved += onNew.unresolved.sum();
                }
                orders += answered.size();
                String invariants = Invariants.check(url, database.username(), database.password(), sale.id(),
                        answered);
                if (!invariants.equals("all hold")) {
                    broken.add("round " + round + ": " + invariants);
                }
            } finally {
                suite.killReplicas();
            }
        }
        readyMillis.sort(null);
        boolean pass = failedStarts.isEmpty() && broken.isEmpty() && errors == 0 && unresolved == 0;
        return "| (k) rolling upgrade from " + PREVIOUS_RELEASE + " (10 migrations applied live), " + rounds
                + " rounds, 16 clients on each release | " + orders + " orders answered; 5xx other than 503: " + errors
                + "; unresolved " + unresolved + "; failed starts " + failedStarts.size()
                + (failedStarts.isEmpty() ? "" : " " + failedStarts) + " | "
                + (broken.isEmpty() ? "all hold" : String.join("; ", broken)) + " | upgraded release ready after "
                + (readyMillis.isEmpty()
                        ? "-"
                        : readyMillis.get(readyMillis.size() / 2) + " ms (median), "
                                + readyMillis.get(readyMillis.size() - 1) + " ms (slowest)")
                + " | - | " + (pass ? "pass" : "FAIL") + " |";
    }
}

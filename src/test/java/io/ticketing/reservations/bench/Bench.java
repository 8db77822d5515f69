package io.ticketing.reservations.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * The checkout benchmark (see BENCHMARKS.md). Starts PostgreSQL (or uses BENCH_JDBC_URL), starts the packaged
 * service in its own process against it, drives the HTTP API from this process, and prints one table row per
 * scenario and concurrency, with the pgbench ceiling beside it. Never part of the test suite.
 */
public final class Bench {

    static final Duration DURATION = Duration.ofSeconds(Integer.getInteger("bench.seconds", 10));
    /** Untimed load before each measurement, so the JIT has compiled the paths a scenario takes. */
    private static final Duration WARM_UP = Duration.ofSeconds(Integer.getInteger("bench.warmup", 5));
    private static final Duration SERVICE_WARM_UP = Duration.ofSeconds(Integer.getInteger("bench.service-warmup", 90));
    /**
     * How long a warm-up may go on past its length while the JIT compiler still takes more than
     * {@link #QUIET_COMPILER_PERCENT} of the service's CPU: a cell measured while it compiles measures the compiler.
     */
    private static final Duration WARM_UP_UNTIL_QUIET = Duration
            .ofSeconds(Integer.getInteger("bench.warmup-until-quiet", 120));
    private static final double QUIET_COMPILER_PERCENT = 5;
    private static final Duration QUIET_STEP = Duration.ofSeconds(5);
    /** Scenarios whose preparation starts work in the service: the waiting room's admissions, the offers' tasks. */
    private static final Set<String> LEAVES_WORK_RUNNING = Set.of("7", "8");
    private static final int[] CONCURRENCY = Arrays.stream(System.getProperty("bench.concurrency", "1,16,64,256")
            .split(",")).mapToInt(Integer::parseInt).toArray();
    private static final List<String> SCENARIOS = List
            .of(System.getProperty("bench.scenarios", "1,1+20000,1+100000,1/10000,1~10000,2,3,4,5,6,7,8").split(","));
    /** Whether pgbench measures the ceilings beside the service ({@code bench.ceiling=false}: not, for speed). */
    private static final boolean CEILING = Boolean.parseBoolean(System.getProperty("bench.ceiling", "true"));
    /**
     * {@code bench.keep-running=true}: each build's database and service start, and warm up, once, and every round
     * runs on them. A round then takes minutes less, so the machine drifts less between the builds it compares, and
     * every round after the first measures services whose compilers had all the time they needed. {@code db cpu}
     * then counts the idle build's database too (its autovacuum, say).
     */
    private static final boolean KEEP_RUNNING = Boolean.getBoolean("bench.keep-running");

    private final Service service;
    private final Admin admin;
    private final Connection sql;
    private final Ceiling ceiling;
    private final List<String> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<Cell> cells = new ArrayList<>();
    private boolean warmedUp;
    /** The storefront token the buyers send: the configured one, or an organizer's ({@link Admin#tokens}). */
    private final String storefront;

    Bench(Service service, Connection sql, Ceiling ceiling, boolean organizerTokens) throws Exception {
        this.service = service;
        String[] tokens = Admin.tokens(service.base, organizerTokens);
        this.admin = new Admin(service.base, tokens[0]);
        this.storefront = tokens[1];
        this.sql = sql;
        this.ceiling = ceiling;
    }

    public static void main(String[] args) throws Exception {
        // exec:java runs this in its own class loader, where DriverManager's start-up scan never looked.
        DriverManager.registerDriver(new org.postgresql.Driver());
        List<Build> builds = Build.fromProperties();
        int rounds = Integer.getInteger("bench.rounds", builds.size() > 1 ? 3 : 1);
        Comparison comparison = new Comparison(builds);
        Map<Build, RunningBuild> running = new LinkedHashMap<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                // Alternate the order, so neither build always runs on a machine the other has just warmed or tired.
                List<Build> order = new ArrayList<>(builds);
                if (round % 2 == 0) {
                    java.util.Collections.reverse(order);
                }
                for (Build build : order) {
                    System.out.printf("%n== round %d of %d: %s (%s)%n", round, rounds, build.label(), build.app());
                    if (KEEP_RUNNING) {
                        if (!running.containsKey(build)) {
                            running.put(build, RunningBuild.start(build, "-" + (running.size() + 1)));
                        }
                        comparison.add(build, running.get(build).bench().pass());
                    } else {
                        comparison.add(build, measure(build));
                    }
                }
            }
        } finally {
            for (RunningBuild build : running.values()) {
                build.close();
            }
        }
        if (builds.size() > 1 || rounds > 1) {
            String table = comparison.table();
            System.out.println(table);
            Files.writeString(Path.of("target", "bench-comparison.md"), table + System.lineSeparator());
        }
    }

    /** One whole run of the scenarios against a fresh database and a fresh service of {@code build}. */
    private static List<Cell> measure(Build build) throws Exception {
        try (RunningBuild running = RunningBuild.start(build, "")) {
            String streams = System.getProperty("bench.streams");
            if (streams != null) {
                new Streams(running.service()).run(Arrays.stream(streams.split(",")).map(Integer::valueOf).toList());
                return List.of();
            }
            return running.bench().pass();
        }
    }

    /**
     * Every scenario at every concurrency, once; the first pass warms the service up first. Prints the pass's table
     * and returns its cells.
     */
    List<Cell> pass() throws Exception {
        rows.clear();
        notes.clear();
        cells.clear();
        String header = String.format(
                "| %-36s | %4s | %7s | %8s | %7s | %7s | %7s | %9s | %7s | %5s | %7s | %8s | %6s | %8s | %8s | %8s | %8s | %5s |",
                "scenario", "c", "ops/s", "req/s", "p50 ms", "p99 ms", "req p99", "lock p99", "svc cpu", "jit %",
                "db cpu", "timeouts", "errors",
                "refusals",
                "oversold", "pgb min", "pgb svc", "ratio");
        rows.add(header);
        rows.add(header.replaceAll("[^|]", "-"));
        if (!warmedUp) {
            warmUpService();
            warmedUp = true;
        }
        for (String scenario : SCENARIOS) {
            for (int clients : CONCURRENCY) {
                run(scenario.trim(), clients);
            }
        }
        service.sampleMemory();
        rows.add("");
        rows.addAll(notes);
        rows.add("service peak RSS: " + service.peakRssMb() + " MiB");
        String table = String.join(System.lineSeparator(), rows);
        System.out.println(table);
        Files.writeString(Path.of("target", "bench-results.md"), table + System.lineSeparator());
        return List.copyOf(cells);
    }

    /**
     * A fresh JVM interprets before it compiles, and on two busy cores its compiler threads get little time: the
     * whole purchase, untimed, before the first measurement. After 30 s the first cell of scenario 1 still ran at
     * half the speed of the next one. Half of it with 16 clients, half with one: a service that combines claims
     * takes another path for a request that waits for none (alone), which 16 clients seldom take, and which the JIT
     * otherwise compiles during the one-client cells. Then on with 16 until the compiler is quiet.
     */
    private void warmUpService() throws Exception {
        List<Load.Client> buyers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            buyers.add(new Load.Client(service.base, storefront, i, new LongAdder()));
        }
        Load.Operation purchase = Scenarios.prepare("2", admin, buyers, sql).operation();
        Load.run(buyers.size(), SERVICE_WARM_UP.dividedBy(2), buyers, purchase);
        Load.run(1, SERVICE_WARM_UP.dividedBy(2), buyers, purchase);
        notes.add(String.format("service warm-up: %d s, then %s", SERVICE_WARM_UP.toSeconds(),
                warmedLonger(warmUntilCompilerQuiet(buyers.size(), buyers, purchase))));
        buyers.forEach(Load.Client::close);
    }

    /**
     * More of the same load, in steps of {@link #QUIET_STEP}, until the JIT compiler has taken at most
     * {@link #QUIET_COMPILER_PERCENT} of the service's CPU in two steps in a row, or {@link #WARM_UP_UNTIL_QUIET} has
     * passed: 30 s after start it still took a quarter of the service's CPU, and a build with more code compiles
     * longer, so a fixed warm-up compared compilers as much as builds. Each step reads the metrics first, as a
     * measurement does: code compiled while only the scenario's requests came gave up its compiled form at the first
     * other request (a GET of the metrics), and a third of the service's CPU went to compiling it again in the
     * measured window. Returns the compiler's share in each step.
     */
    private List<Double> warmUntilCompilerQuiet(int clients, List<Load.Client> buyers, Load.Operation operation)
            throws Exception {
        List<Double> steps = new ArrayList<>();
        int quietInARow = 0;
        while (quietInARow < 2 && QUIET_STEP.multipliedBy(steps.size()).compareTo(WARM_UP_UNTIL_QUIET) < 0) {
            service.lockWaitBuckets();
            CpuTime before = CpuTime.now(service.pid());
            Load.run(clients, QUIET_STEP, buyers, operation);
            double compiler = CpuTime.now(service.pid()).since(before).compilerPercent();
            steps.add(compiler);
            quietInARow = compiler <= QUIET_COMPILER_PERCENT ? quietInARow + 1 : 0;
        }
        return steps;
    }

    /** How long a warm-up went on past its length, with the compiler's share of each step. */
    private static String warmedLonger(List<Double> steps) {
        return String.format("%d s longer (compiler at %s %% of the service's CPU)",
                QUIET_STEP.multipliedBy(steps.size()).toSeconds(),
                steps.stream().map(step -> String.format("%.0f", step)).collect(Collectors.joining(", ")));
    }

    private void run(String scenario, int clients) throws Exception {
        LongAdder refusals = new LongAdder();
        List<Load.Client> buyers = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            buyers.add(new Load.Client(service.base, storefront, 31L * i + clients, refusals));
        }
        // The JIT settles on a preparation of its own: a scenario's state grows as it runs (scenario 1's carts fill),
        // so the measured one gets the same warm-up in every build, however long the compiler took. Not where a
        // preparation leaves work running in the service (admissions, offers), which would weigh on the other.
        Scenarios.Prepared compiling = Scenarios.prepare(scenario, admin, buyers, sql);
        Load.run(clients, WARM_UP, buyers, compiling.operation());
        List<Double> longer = warmUntilCompilerQuiet(clients, buyers, compiling.operation());
        Scenarios.Prepared prepared = compiling;
        if (!LEAVES_WORK_RUNNING.contains(scenario)) {
            prepared = Scenarios.prepare(scenario, admin, buyers, sql);
            Load.run(clients, WARM_UP, buyers, prepared.operation());
        }
        analyze();
        refusals.reset();
        double timeoutsBefore = service.metric("inventory_lock_timeouts_total");
        TreeMap<Double, Double> waitBefore = service.lockWaitBuckets();
        long admittedBefore = prepared.admitted() == null ? 0 : prepared.admitted().getAsLong();
        CpuTime cpuBefore = CpuTime.now(service.pid());
        Load.Result result = Load.run(clients, DURATION, buyers, prepared.operation());
        CpuTime cpu = CpuTime.now(service.pid()).since(cpuBefore);
        double serviceCpu = cpu.serviceMillis() / Math.max(1, result.operations());
        double databaseCpu = cpu.databaseMillis() / Math.max(1, result.operations());
        long admitted = prepared.admitted() == null ? 0 : prepared.admitted().getAsLong() - admittedBefore;
        buyers.forEach(Load.Client::close);
        service.sampleMemory();
        double timeouts = service.metric("inventory_lock_timeouts_total") - timeoutsBefore;
        double lockP99 = p99(waitBefore, service.lockWaitBuckets());
        long oversold = oversold();
        Double minimal = null;
        Double serviceSql = null;
        if (!CEILING) {
            // measured by pgbench only when asked: an A/B run of the service alone is quicker without it
        } else if (prepared.hasCeiling() && scenario.equals("2")) {
            minimal = ceiling.minimalPurchase(Scenarios.ceilingTarget(admin), clients);
        } else if (prepared.hasCeiling()) {
            minimal = ceiling.minimal(Scenarios.ceilingTarget(admin), clients);
            serviceSql = ceiling.service(Scenarios.ceilingTarget(admin), clients);
        }
        cells.add(new Cell(prepared.name(), clients, result.perSecond(), result.p99Micros() / 1000.0,
                result.requestP99Micros() / 1000.0, serviceCpu, cpu.compilerPercent(), databaseCpu, (long) timeouts,
                result.errors(), oversold, minimal));
        rows.add(String.format(
                "| %-36s | %4d | %7.0f | %8.0f | %7.1f | %7.1f | %7.1f | %9s | %7.2f | %5.1f | %7.2f | %8.0f | %6d | %8d | %8d | %8s | %8s | %5s |",
                prepared.name(), clients, result.perSecond(), result.perSecond() * prepared.requestsPerOperation(),
                result.p50Micros() / 1000.0, result.p99Micros() / 1000.0, result.requestP99Micros() / 1000.0,
                String.format("%.1f ms", lockP99 * 1000), serviceCpu, cpu.compilerPercent(), databaseCpu,
                timeouts, result.errors(), refusals.sum(), oversold, format(minimal), format(serviceSql),
                minimal == null ? "-" : String.format("%.2f", result.perSecond() / minimal)));
        System.out.println(rows.get(rows.size() - 1));
        notes.add(String.format("%s, %d clients: warmed up %s", prepared.name(), clients, warmedLonger(longer)));
        if (prepared.admitted() != null) {
            notes.add(String.format("%s, %d clients: %.0f admissions a second", prepared.name(), clients,
                    admitted / result.seconds()));
            System.out.println(notes.get(notes.size() - 1));
        }
    }

    private static String format(Double tps) {
        return tps == null ? "-" : String.format("%.0f", tps);
    }

    /** The 99th percentile of the lock waits between two scrapes, from the histogram's bucket counts. */
    private static double p99(TreeMap<Double, Double> before, TreeMap<Double, Double> after) {
        double total = after.lastEntry() == null
                ? 0
                : after.lastEntry().getValue()
                        - before.getOrDefault(after.lastKey(), 0.0);
        if (total <= 0) {
            return 0;
        }
        for (Map.Entry<Double, Double> bucket : after.entrySet()) {
            double count = bucket.getValue() - before.getOrDefault(bucket.getKey(), 0.0);
            if (count >= 0.99 * total) {
                return bucket.getKey();
            }
        }
        return Double.NaN;
    }

    /**
     * Statistics as a live database has them once a sale is under way. In this throwaway one, a table that was
     * empty when last analyzed keeps looking empty to the planner while the warm-up fills it, and the plans
     * made then (the cart's positions read by a sequential scan) would be measured instead, at up to half the
     * speed, until autovacuum analyzed it again. Analyzing invalidates the service's cached plans.
     */
    private void analyze() throws Exception {
        try (Statement statement = sql.createStatement()) {
            statement.execute("ANALYZE");
        }
    }

    /** Quotas past their size, seats held twice and vouchers over-used, across the whole database. */
    private long oversold() throws Exception {
        long violations = 0;
        for (String query : List.of("""
                SELECT count(*) FROM quotas q WHERE q.size IS NOT NULL AND q.size <
                  (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                    WHERE o.status IN ('paid', 'pending')
                      AND p.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = q.id))
                + (SELECT count(*) FROM cart_positions c WHERE c.expires >= now()
                      AND c.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = q.id))""", """
                SELECT count(*) FROM (SELECT seat_id FROM (
                  SELECT seat_id FROM cart_positions WHERE seat_id IS NOT NULL AND expires >= now()
                  UNION ALL SELECT p.seat_id FROM order_positions p JOIN orders o ON o.id = p.order_id
                    WHERE p.seat_id IS NOT NULL AND o.status IN ('paid', 'pending')) held
                  GROUP BY seat_id HAVING count(*) > 1) twice""")) {
            try (Statement statement = sql.createStatement(); ResultSet rows = statement.executeQuery(query)) {
                rows.next();
                violations += rows.getLong(1);
            }
        }
        return violations;
    }
}

package io.ticketing.reservations.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The runs of several builds (or of one build several times), side by side: each cell's rounds and their median.
 * The last column compares each build's median with the first build's, the baseline.
 */
final class Comparison {

    private final List<Build> builds;
    private final Map<String, Map<Build, List<Cell>>> byCell = new LinkedHashMap<>();

    Comparison(List<Build> builds) {
        this.builds = builds;
    }

    void add(Build build, List<Cell> cells) {
        for (Cell cell : cells) {
            byCell.computeIfAbsent(String.format("%-36s | %4d", cell.scenario(), cell.clients()),
                    key -> new LinkedHashMap<>()).computeIfAbsent(build, key -> new ArrayList<>()).add(cell);
        }
    }

    String table() {
        List<String> lines = new ArrayList<>();
        String header = String.format(
                "| %-36s | %4s | %-28s | %-24s | %7s | %7s | %7s | %7s | %5s | %7s | %5s | %8s | %8s |",
                "scenario", "c", "build", "ops/s, rounds", "median", "p99 ms", "req p99", "svc cpu", "jit %", "db cpu",
                "ratio",
                "to first",
                "t/e/o");
        lines.add(header);
        lines.add(header.replaceAll("[^|]", "-"));
        for (Map.Entry<String, Map<Build, List<Cell>>> cell : byCell.entrySet()) {
            Double first = null;
            for (Build build : builds) {
                List<Cell> runs = cell.getValue().get(build);
                if (runs == null) {
                    continue;
                }
                double ops = median(runs, Cell::opsPerSecond);
                first = first == null ? ops : first;
                List<Cell> withCeiling = runs.stream().filter(run -> run.ratio() != null).toList();
                lines.add(String.format(
                        "| %s | %-28s | %-24s | %7.0f | %7.1f | %7.1f | %7.2f | %5.1f | %7.2f | %5s | %8s | %8s |",
                        cell.getKey(), build.label(),
                        runs.stream().map(run -> String.format("%.0f", run.opsPerSecond()))
                                .collect(Collectors.joining(", ")),
                        ops, median(runs, Cell::p99Millis), median(runs, Cell::requestP99Millis),
                        median(runs, Cell::serviceCpuMillis), median(runs, Cell::compilerPercent),
                        median(runs, Cell::databaseCpuMillis),
                        withCeiling.isEmpty() ? "-" : String.format("%.2f", median(withCeiling, Cell::ratio)),
                        String.format("%.2f", ops / first),
                        runs.stream().mapToLong(Cell::timeouts).sum() + "/"
                                + runs.stream().mapToLong(Cell::errors).sum() + "/"
                                + runs.stream().mapToLong(Cell::oversold).sum()));
            }
        }
        lines.add("");
        lines.add("median of the rounds; svc cpu, db cpu: CPU ms an operation of the service and of PostgreSQL;"
                + " jit %: the JIT compiler's share of the service's CPU during the measurement; ratio: ops/s over"
                + " `pgb min` of the same round; to first: median ops/s over the first build's; t/e/o: lock timeouts,"
                + " errors and oversold, summed over the rounds");
        return String.join(System.lineSeparator(), lines);
    }

    private static double median(List<Cell> runs, ToDoubleFunction<Cell> value) {
        double[] sorted = runs.stream().mapToDouble(value).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}

package io.ticketing.reservations.inventory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which free seats a request for {@code quantity} seats gets (contract section 8), as a pure function of the free
 * seats. Adjacent means consecutive numbers in one section and row. Rows are ranked in section, then row order
 * (numbers as numbers, "B" before "AA"), so a venue names its best rows first.
 * <ol>
 * <li>One block of adjacent seats in one row when any run of free seats is long enough: first a block that leaves
 * no single free seat stranded at either end of its run, then the best-ranked row, then the lowest numbers.</li>
 * <li>Otherwise the fewest rows: the rows with the most free seats, each giving its longest runs first.</li>
 * <li>Fewer free seats than asked for: nothing (all or nothing).</li>
 * </ol>
 */
public final class BestSeats {

    /** A seat no one holds, with its place. */
    public record FreeSeat(long id, String section, String row, int number) {
    }

    private static final Comparator<String> NATURAL = Comparator.nullsFirst(BestSeats::compareNaturally);
    private static final Comparator<FreeSeat> PLAN_ORDER = Comparator.comparing(FreeSeat::section, NATURAL)
            .thenComparing(FreeSeat::row, NATURAL).thenComparingInt(FreeSeat::number);

    private BestSeats() {
    }

    public static Optional<List<FreeSeat>> choose(List<FreeSeat> free, int quantity) {
        if (free.size() < quantity) {
            return Optional.empty();
        }
        List<List<List<FreeSeat>>> rows = runsByRow(free);
        return Optional.of(oneBlock(rows, quantity).orElseGet(() -> fewestRows(rows, quantity)));
    }

    private static Optional<List<FreeSeat>> oneBlock(List<List<List<FreeSeat>>> rows, int quantity) {
        List<FreeSeat> best = null;
        int bestStranded = Integer.MAX_VALUE;
        for (List<List<FreeSeat>> row : rows) {
            for (List<FreeSeat> run : row) {
                if (run.size() < quantity) {
                    continue;
                }
                // From the run's start: only a run one seat longer than asked strands a seat, wherever the block is.
                int stranded = run.size() - quantity == 1 ? 1 : 0;
                if (stranded < bestStranded) {
                    best = run.subList(0, quantity);
                    bestStranded = stranded;
                }
            }
            if (bestStranded == 0) {
                break;
            }
        }
        return Optional.ofNullable(best).map(List::copyOf);
    }

    private static List<FreeSeat> fewestRows(List<List<List<FreeSeat>>> rows, int quantity) {
        List<List<List<FreeSeat>>> fullest = new ArrayList<>(rows);
        fullest.sort(Comparator.comparingInt(BestSeats::freeIn).reversed());
        List<FreeSeat> chosen = new ArrayList<>();
        for (List<List<FreeSeat>> row : fullest) {
            List<List<FreeSeat>> longestFirst = new ArrayList<>(row);
            longestFirst.sort(Comparator.comparingInt((List<FreeSeat> run) -> run.size()).reversed());
            for (List<FreeSeat> run : longestFirst) {
                chosen.addAll(run.subList(0, Math.min(run.size(), quantity - chosen.size())));
                if (chosen.size() == quantity) {
                    return chosen;
                }
            }
        }
        throw new IllegalStateException("fewer free seats than counted");
    }

    /** The free seats in plan order, as rows of runs of consecutive numbers. */
    private static List<List<List<FreeSeat>>> runsByRow(List<FreeSeat> free) {
        Map<List<String>, List<List<FreeSeat>>> rows = new LinkedHashMap<>();
        for (FreeSeat seat : free.stream().sorted(PLAN_ORDER).toList()) {
            List<List<FreeSeat>> row = rows.computeIfAbsent(Arrays.asList(seat.section(), seat.row()),
                    key -> new ArrayList<>());
            List<FreeSeat> run = row.isEmpty() ? null : row.get(row.size() - 1);
            if (run == null || run.get(run.size() - 1).number() + 1 != seat.number()) {
                run = new ArrayList<>();
                row.add(run);
            }
            run.add(seat);
        }
        return List.copyOf(rows.values());
    }

    private static int freeIn(List<List<FreeSeat>> row) {
        return row.stream().mapToInt(List::size).sum();
    }

    private static int compareNaturally(String a, String b) {
        boolean aNumber = a.chars().allMatch(Character::isDigit) && a.length() < 10;
        boolean bNumber = b.chars().allMatch(Character::isDigit) && b.length() < 10;
        if (aNumber && bNumber) {
            return Integer.compare(Integer.parseInt(a), Integer.parseInt(b));
        }
        return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
    }
}

package io.ticketing.reservations.inventory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
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
    /** Rows as (section, row) pairs, in the order they are ranked. */
    private static final Comparator<List<String>> ROW_ORDER = Comparator.<List<String>, String>comparing(
            row -> row.get(0), NATURAL).thenComparing(row -> row.get(1), NATURAL);

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

    /**
     * The free seats in plan order, as rows of runs of consecutive numbers. Seats are grouped by row first and only
     * the rows compared by name: a venue has thousands of seats but few rows.
     */
    private static List<List<List<FreeSeat>>> runsByRow(List<FreeSeat> free) {
        Map<List<String>, List<FreeSeat>> seatsByRow = new HashMap<>();
        for (FreeSeat seat : free) {
            seatsByRow.computeIfAbsent(Arrays.asList(seat.section(), seat.row()), key -> new ArrayList<>()).add(seat);
        }
        List<List<String>> rowNames = new ArrayList<>(seatsByRow.keySet());
        rowNames.sort(ROW_ORDER);
        List<List<List<FreeSeat>>> rows = new ArrayList<>();
        for (List<String> rowName : rowNames) {
            List<FreeSeat> seats = seatsByRow.get(rowName);
            seats.sort(Comparator.comparingInt(FreeSeat::number));
            List<List<FreeSeat>> runs = new ArrayList<>();
            List<FreeSeat> run = null;
            for (FreeSeat seat : seats) {
                if (run == null || run.get(run.size() - 1).number() + 1 != seat.number()) {
                    run = new ArrayList<>();
                    runs.add(run);
                }
                run.add(seat);
            }
            rows.add(runs);
        }
        return rows;
    }

    private static int freeIn(List<List<FreeSeat>> row) {
        return row.stream().mapToInt(List::size).sum();
    }

    private static int compareNaturally(String a, String b) {
        if (isSmallNumber(a) && isSmallNumber(b)) {
            return Integer.compare(Integer.parseInt(a), Integer.parseInt(b));
        }
        return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
    }

    private static boolean isSmallNumber(String text) {
        if (text.isEmpty() || text.length() > 9) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}

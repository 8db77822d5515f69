package io.ticketing.reservations.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ticketing.reservations.inventory.BestSeats.FreeSeat;

/** The choice of best available seats, as a pure function of the free seats. */
class BestSeatsTest {

    private long nextId = 1;

    /** Free seats of one row: {@code "A", 1, 2, 3} is seats 1 to 3 of row A. */
    private List<FreeSeat> row(String section, String row, int... numbers) {
        List<FreeSeat> seats = new ArrayList<>();
        for (int number : numbers) {
            seats.add(new FreeSeat(nextId++, section, row, number));
        }
        return seats;
    }

    private static List<String> places(List<FreeSeat> seats) {
        return seats.stream().map(seat -> seat.row() + seat.number()).toList();
    }

    private static List<FreeSeat> all(List<List<FreeSeat>> rows) {
        return rows.stream().flatMap(List::stream).toList();
    }

    @Test
    void aBlockInTheBestRowThatFits() {
        List<FreeSeat> free = all(List.of(row(null, "B", 1, 2, 3, 4, 5, 6), row(null, "A", 1, 2, 4, 5, 6)));
        assertThat(places(BestSeats.choose(free, 2).orElseThrow())).containsExactly("A1", "A2");
        assertThat(places(BestSeats.choose(free, 3).orElseThrow())).containsExactly("A4", "A5", "A6");
        assertThat(places(BestSeats.choose(free, 5).orElseThrow())).containsExactly("B1", "B2", "B3", "B4", "B5");
    }

    @Test
    void noSingleSeatIsStrandedWhenAnotherBlockAvoidsIt() {
        // Row A's run of three would leave one seat alone; row B's run of two fits exactly.
        List<FreeSeat> free = all(List.of(row(null, "A", 1, 2, 3), row(null, "B", 7, 8)));
        assertThat(places(BestSeats.choose(free, 2).orElseThrow())).containsExactly("B7", "B8");
        // With no other choice the stranded seat is accepted.
        List<FreeSeat> only = row(null, "A", 1, 2, 3);
        assertThat(places(BestSeats.choose(only, 2).orElseThrow())).containsExactly("A1", "A2");
    }

    @Test
    void rowsAreRankedNaturally() {
        List<FreeSeat> free = all(List.of(row(null, "10", 1, 2), row(null, "9", 1, 2), row(null, "AA", 1, 2),
                row(null, "B", 1, 2)));
        assertThat(places(BestSeats.choose(free, 2).orElseThrow())).containsExactly("91", "92");
        List<FreeSeat> letters = all(List.of(row(null, "AA", 1, 2), row(null, "B", 1, 2)));
        assertThat(places(BestSeats.choose(letters, 2).orElseThrow())).containsExactly("B1", "B2");
    }

    @Test
    void withoutABlockTheFewestRowsLongestRunsFirst() {
        List<FreeSeat> free = all(List.of(row(null, "A", 1, 3, 5), row(null, "B", 1, 2, 4, 5, 6),
                row(null, "C", 2, 4)));
        assertThat(places(BestSeats.choose(free, 4).orElseThrow())).containsExactly("B4", "B5", "B6", "B1");
        assertThat(places(BestSeats.choose(free, 7).orElseThrow())).containsExactly("B4", "B5", "B6", "B1", "B2",
                "A1", "A3");
    }

    @Test
    void sectionsDoNotJoinRowsOfTheSameName() {
        List<FreeSeat> free = all(List.of(row("Left", "A", 1, 2), row("Right", "A", 3, 4)));
        List<FreeSeat> chosen = BestSeats.choose(free, 3).orElseThrow();
        assertThat(chosen).hasSize(3);
        assertThat(chosen.stream().map(FreeSeat::section).distinct()).hasSize(2);
    }

    @Test
    void allOrNothing() {
        assertThat(BestSeats.choose(row(null, "A", 1, 2, 3), 4)).isEmpty();
        assertThat(BestSeats.choose(List.of(), 1)).isEmpty();
    }
}

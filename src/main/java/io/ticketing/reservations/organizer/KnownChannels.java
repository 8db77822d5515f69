package io.ticketing.reservations.organizer;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.problem.NotFoundException;

/** What names a channel (a token, an item, a seat) names one of its organizer's: else 404. */
@ApplicationScoped
public class KnownChannels {

    private static final String KNOWN = """
            SELECT slug FROM channels WHERE organizer_id = :organizer AND slug = ANY(:slugs)""";

    private final Jdbc jdbc;

    KnownChannels(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * What an item or a seat sells in: {@code slugs} each once, in the order given, once they are all the
     * organizer's (else 404); null, for every channel, when null.
     */
    public List<String> sellingIn(long organizerId, List<String> slugs) {
        if (slugs == null) {
            return null;
        }
        require(organizerId, slugs);
        return eachOnce(slugs);
    }

    /** {@code slugs} each once, in the order given; null stays null (every channel). */
    public static List<String> eachOnce(List<String> slugs) {
        return slugs == null ? null : slugs.stream().distinct().toList();
    }

    /** {@code slugs} must all be channels of the organizer, or 404 naming those that are not. */
    public void require(long organizerId, Collection<String> slugs) {
        Set<String> wanted = new TreeSet<>(slugs);
        Set<String> known = new TreeSet<>(jdbc.statement(KNOWN).set("organizer", organizerId)
                .set("slugs", wanted.toArray(String[]::new)).list(row -> row.getString(1)));
        wanted.removeAll(known);
        if (!wanted.isEmpty()) {
            throw new NotFoundException("channel", String.join(", ", wanted));
        }
    }
}

package io.ticketing.reservations.jdbc;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The SQL of a round trip, one instance for each sequence of statements: the driver finds a statement's parsed form
 * by its string, and a string joined afresh for every round trip was hashed and compared in full, some kilobytes
 * each time. Round trips of as many statements as a batch has rows make many sequences: only so many are kept.
 */
final class RoundTripSql {

    private static final int MOST_KEPT = 1_000;

    private final Map<List<String>, String> kept = new ConcurrentHashMap<>();

    String of(List<String> statements) {
        if (statements.size() == 1) {
            return statements.get(0);
        }
        String sql = kept.get(statements);
        if (sql == null) {
            sql = String.join("; ", statements);
            if (kept.size() < MOST_KEPT) {
                kept.putIfAbsent(statements, sql);
            }
        }
        return sql;
    }
}

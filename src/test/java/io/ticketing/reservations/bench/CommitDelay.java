package io.ticketing.reservations.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Makes every commit of the benchmark's database wait, as a synchronous replica in another zone does: commits
 * are flushed ({@code fsync} and {@code synchronous_commit} on) and each flush first waits {@code commit_delay}
 * ({@code commit_siblings = 0}, so alone too). The wait falls between the commit record and the release of the
 * transaction's locks, where a replica's acknowledgement falls. Applies to the service and to pgbench alike.
 */
final class CommitDelay {

    private CommitDelay() {
    }

    static void apply(Connection superuser, int millis) throws SQLException {
        if (millis <= 0) {
            return;
        }
        if (millis > 100) {
            throw new IllegalArgumentException("bench.commit-delay-ms is at most 100 (PostgreSQL's commit_delay)");
        }
        try (Statement statement = superuser.createStatement()) {
            statement.execute("ALTER SYSTEM SET fsync = on");
            statement.execute("ALTER SYSTEM SET synchronous_commit = on");
            statement.execute("ALTER SYSTEM SET commit_siblings = 0");
            statement.execute("ALTER SYSTEM SET commit_delay = " + millis * 1000);
            statement.execute("SELECT pg_reload_conf()");
            // A setting given at the server's start wins over ALTER SYSTEM: say so rather than measure no delay. The
            // reload reaches this session a moment later.
            String settings = "";
            for (int attempt = 0; attempt < 100; attempt++) {
                try (ResultSet applied = statement.executeQuery("SELECT current_setting('fsync') || ' '"
                        + " || current_setting('synchronous_commit') || ' ' || current_setting('commit_delay')")) {
                    applied.next();
                    settings = applied.getString(1);
                }
                if (settings.equals("on on " + millis * 1000)) {
                    return;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            throw new IllegalStateException("the database did not take the commit delay (fsync, synchronous_commit,"
                    + " commit_delay): " + settings);
        }
    }
}

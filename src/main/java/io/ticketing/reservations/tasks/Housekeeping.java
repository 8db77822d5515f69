package io.ticketing.reservations.tasks;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;

/**
 * Keeps the bookkeeping tables small: finished tasks and delivered webhooks after a week, idempotency keys
 * after their 24 hours, hold counters an hour after their bucket stopped counting, admitted queue tickets an hour
 * after their admission token ran out. Each statement deletes at
 * most a batch, so replicas running it together only share the work; a row one of them deletes is simply gone
 * for the other.
 */
@ApplicationScoped
public class Housekeeping implements Sweep {

    // Package-private: DeleteIndexesTest checks that these deletes find their rows through an index.
    static final String[] STATEMENTS = {
            """
                    DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE status = 'done'
                      AND finished_at < now() - interval '7 days' LIMIT 1000)""",
            """
                    DELETE FROM webhook_messages WHERE id IN (SELECT id FROM webhook_messages
                      WHERE delivered_at < now() - interval '7 days' LIMIT 1000)""",
            """
                    DELETE FROM idempotency_keys WHERE (caller, key) IN (SELECT caller, key FROM idempotency_keys
                      WHERE created_at < now() - interval '24 hours' LIMIT 1000)""",
            """
                    DELETE FROM item_holds WHERE (item_id, date_id, width, bucket) IN (SELECT item_id, date_id, width, bucket
                      FROM item_holds WHERE bucket < now() - interval '1 hour' LIMIT 1000)""",
            // An admitted queue ticket is kept while its admission token is valid, and an hour more for readers.
            """
                    DELETE FROM queue_tickets WHERE id IN (SELECT q.id FROM queue_tickets q JOIN events e
                      ON e.id = q.event_id WHERE q.admitted_at < now() - make_interval(secs => e.cart_ttl_seconds)
                        - interval '1 hour' LIMIT 1000)"""};

    private final Jdbc jdbc;

    Housekeeping(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public int sweep() {
        int deleted = 0;
        for (String statement : STATEMENTS) {
            // Auto-commit: each statement is a transaction of its own.
            deleted += jdbc.statement(statement).update();
        }
        return deleted;
    }
}

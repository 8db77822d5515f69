package io.ticketing.reservations.idempotency;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;

import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The stored keys. Each call is its own short transaction, apart from the request's: the record of a
 * running request must be visible to a retry on another replica at once.
 */
@ApplicationScoped
class IdempotencyKeys {

    /** A first response is kept this long; after that the key may be used afresh. */
    static final Duration KEPT_FOR = Duration.ofHours(24);
    /**
     * A request still "running" after this long died with its replica (a durable transaction is rolled back
     * long before): its key is taken over instead of answering 409 forever.
     */
    static final Duration ABANDONED_AFTER = Duration.ofMinutes(2);

    /** The primary key decides who is first, across replicas. */
    private static final String CLAIM = """
            INSERT INTO idempotency_keys (caller, key, request_hash) VALUES (:caller, :key, :hash)
            ON CONFLICT DO NOTHING""";

    private static final String FIND = """
            SELECT request_hash, status, content_type, location, etag, body,
                   created_at < now() - make_interval(secs => :kept) AS stale,
                   status IS NULL AND created_at < now() - make_interval(secs => :abandoned) AS abandoned
            FROM idempotency_keys WHERE caller = :caller AND key = :key""";

    /** Deletes an expired or abandoned record so that CLAIM can run again; only the row that was read. */
    private static final String DROP = """
            DELETE FROM idempotency_keys WHERE caller = :caller AND key = :key AND request_hash = :hash
              AND coalesce(status, 0) = :status""";

    private static final String COMPLETE = """
            UPDATE idempotency_keys SET status = :status, content_type = :type, location = :location,
                   etag = :etag, body = :body
            WHERE caller = :caller AND key = :key""";

    private static final String FORGET = "DELETE FROM idempotency_keys WHERE caller = :caller AND key = :key";

    interface Claim {
    }

    record Started() implements Claim {
    }

    record InFlight() implements Claim {
    }

    record Mismatch() implements Claim {
    }

    record Replay(int status, String contentType, String location, String etag, String body) implements Claim {
    }

    private final EntityManager entityManager;

    IdempotencyKeys(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    Claim claim(String caller, String key, String requestHash) {
        return QuarkusTransaction.requiringNew().call(() -> {
            for (int attempt = 0; attempt < 3; attempt++) {
                if (entityManager.createNativeQuery(CLAIM).setParameter("caller", caller).setParameter("key", key)
                        .setParameter("hash", requestHash).executeUpdate() == 1) {
                    return new Started();
                }
                List<?> rows = entityManager.createNativeQuery(FIND).setParameter("caller", caller)
                        .setParameter("key", key).setParameter("kept", KEPT_FOR.toSeconds())
                        .setParameter("abandoned", ABANDONED_AFTER.toSeconds()).getResultList();
                if (rows.isEmpty()) {
                    continue;
                }
                Object[] row = (Object[]) rows.get(0);
                Integer status = row[1] == null ? null : ((Number) row[1]).intValue();
                if (Boolean.TRUE.equals(row[6]) || Boolean.TRUE.equals(row[7])) {
                    entityManager.createNativeQuery(DROP).setParameter("caller", caller).setParameter("key", key)
                            .setParameter("hash", row[0]).setParameter("status", status == null ? 0 : status)
                            .executeUpdate();
                    continue;
                }
                if (!requestHash.equals(row[0])) {
                    return new Mismatch();
                }
                if (status == null) {
                    return new InFlight();
                }
                return new Replay(status, (String) row[2], (String) row[3], (String) row[4], (String) row[5]);
            }
            return new InFlight();
        });
    }

    void complete(String caller, String key, int status, String contentType, String location, String etag,
            String body) {
        QuarkusTransaction.requiringNew().run(() -> entityManager.createNativeQuery(COMPLETE)
                .setParameter("caller", caller).setParameter("key", key).setParameter("status", status)
                .setParameter("type", contentType).setParameter("location", location).setParameter("etag", etag)
                .setParameter("body", body).executeUpdate());
    }

    void forget(String caller, String key) {
        QuarkusTransaction.requiringNew().run(() -> entityManager.createNativeQuery(FORGET)
                .setParameter("caller", caller).setParameter("key", key).executeUpdate());
    }
}

package io.ticketing.reservations.auth;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;

import org.jboss.logging.Logger;

import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.ticketing.reservations.jdbc.Jdbc;

/**
 * Organizers' API tokens (contract section 11) as every replica knows them: in memory, so that checking one costs
 * no database read. Each replica reads the tokens changed since it last looked every
 * {@code auth.token-sync-interval} (a second), so a revocation on any replica is felt everywhere within two; what
 * this replica changed itself it knows once that change commits. A token this replica does not know (made on
 * another a moment ago, or made up) waits for the next read instead of reading it alone: made-up tokens cost no
 * database work, however many are sent. Only a SHA-256 of a secret is kept, here and in the database: the secret has
 * 256 random bits. When tokens were used is written once every {@code auth.token-use-flush-interval}, never on the
 * request's path.
 *
 * <p>A token reads {@code ir_<prefix>_<secret>}: the prefix (shown in lists) finds it, the whole token's hash
 * proves it.
 */
@Startup
@ApplicationScoped
public class ApiTokens {

    private static final Logger LOG = Logger.getLogger(ApiTokens.class);
    public static final String MARK = "ir_";
    /** Changes committed out of the order of their times are still seen: each read looks this far back. */
    private static final Duration OVERLAP = Duration.ofSeconds(5);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What a replica keeps of a token, as {@link Entry#read} reads it (also after {@code RETURNING}). */
    public static final String COLUMNS = """
            id, organizer_id, scope, events, prefix, secret_hash, expires_at, revoked_at IS NOT NULL, changed_at,
              channel""";
    private static final String CHANGED_SINCE = "SELECT " + COLUMNS
            + " FROM api_tokens WHERE changed_at > :since ORDER BY changed_at";
    private static final String TOUCH = """
            UPDATE api_tokens SET last_used_at = greatest(last_used_at, CAST(:when AS timestamptz))
            WHERE id = ANY(:ids)""";

    /** One token as this replica knows it; the latest change of it wins. */
    public record Entry(long id, long organizerId, String scope, Set<Long> eventIds, String prefix, byte[] hash,
            Instant expiresAt, boolean revoked, Instant changedAt, String channel) {

        /** A row of {@link #COLUMNS}. */
        public static Entry read(ResultSet row) throws SQLException {
            return new Entry(row.getLong(1), row.getLong(2), row.getString(3),
                    row.getArray(4) == null ? null : Set.copyOf(Jdbc.longs(row, 4)), row.getString(5),
                    row.getBytes(6), Jdbc.instant(row, 7), row.getBoolean(8), Jdbc.instant(row, 9), row.getString(10));
        }
    }

    /** A new token: shown once, as {@code token}; stored as {@link #hash} of it, found by {@code prefix}. */
    public record Secret(String token, String prefix) {

        public byte[] hash() {
            return Sha256.of(token);
        }
    }

    private final Map<String, Entry> byPrefix = new ConcurrentHashMap<>();
    private final Map<Long, Instant> used = new ConcurrentHashMap<>();
    private final Jdbc jdbc;
    private final Clock clock;
    private volatile Instant seenUpTo = Instant.EPOCH;
    /** Completed by the next read of changed tokens to start: what a token this replica does not know waits for. */
    private volatile CompletableFuture<Void> nextSync = new CompletableFuture<>();

    ApiTokens(Jdbc jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    public static Secret newSecret() {
        byte[] prefix = new byte[9];
        byte[] secret = new byte[32];
        RANDOM.nextBytes(prefix);
        RANDOM.nextBytes(secret);
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String visible = MARK + base64.encodeToString(prefix).replace('-', 'x').replace('_', 'y');
        return new Secret(visible + "_" + base64.encodeToString(secret), visible);
    }

    /** The prefix of a presented token ({@code ir_<prefix>}), or empty when it is not one of ours. */
    static Optional<String> prefixOf(String token) {
        int end = token.indexOf('_', MARK.length());
        return token.startsWith(MARK) && end > MARK.length() ? Optional.of(token.substring(0, end)) : Optional.empty();
    }

    /** The token, if this replica knows it. */
    Optional<Entry> known(String prefix) {
        return Optional.ofNullable(byPrefix.get(prefix));
    }

    /**
     * Done when a read of changed tokens that started after this call has ended (or failed): a token made on
     * another replica before this call is then known, if it exists.
     */
    CompletionStage<Void> nextSync() {
        return nextSync;
    }

    /** Whether {@code presented} is the token {@code entry} stands for, usable now. Constant time in the secret. */
    boolean admits(Entry entry, String presented) {
        return MessageDigest.isEqual(entry.hash(), Sha256.of(presented)) && !entry.revoked()
                && (entry.expiresAt() == null || entry.expiresAt().isAfter(clock.instant()));
    }

    /**
     * Whether the caller's token is still good, as far as this replica knows: for what outlives the request that
     * was let in (an availability stream). Configured tokens change only with a restart.
     */
    public boolean stillAdmits(Caller caller) {
        if (!caller.isOrganizer()) {
            return true;
        }
        Entry entry = byPrefix.get(caller.tokenPrefix());
        return entry != null && entry.id() == caller.tokenId() && !entry.revoked()
                && (entry.expiresAt() == null || entry.expiresAt().isAfter(clock.instant()));
    }

    /** A token that was just used: its {@code last_used_at} is written at the next flush. */
    void used(Entry entry) {
        used.put(entry.id(), clock.instant());
    }

    /** A token this replica changed (made, revoked), known here once the change is committed, never before. */
    void changed(@Observes(during = TransactionPhase.AFTER_SUCCESS) Entry entry) {
        learn(entry);
    }

    private void learn(Entry entry) {
        byPrefix.merge(entry.prefix(), entry,
                (known, read) -> read.changedAt().isBefore(known.changedAt()) ? known : read);
    }

    @Scheduled(identity = "api-token-sync", every = "${auth.token-sync-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    @ActivateRequestContext
    void sync() {
        CompletableFuture<Void> waiting = nextSync;
        nextSync = new CompletableFuture<>();
        try {
            Instant newest = seenUpTo;
            for (Entry read : jdbc.statement(CHANGED_SINCE).set("since", seenUpTo.minus(OVERLAP))
                    .list(Entry::read)) {
                learn(read);
                newest = read.changedAt().isAfter(newest) ? read.changedAt() : newest;
            }
            seenUpTo = newest;
        } catch (RuntimeException e) {
            LOG.warnf(e, "reading the API tokens changed lately failed; the next round retries");
        } finally {
            waiting.complete(null);
        }
    }

    @Scheduled(identity = "api-token-use", every = "${auth.token-use-flush-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    @ActivateRequestContext
    void flushUse() {
        if (used.isEmpty()) {
            return;
        }
        Set<Long> ids = new HashSet<>(used.keySet());
        Instant when = used.values().stream().max(Instant::compareTo).orElse(clock.instant());
        ids.forEach(used::remove);
        try {
            jdbc.statement(TOUCH).set("when", when).set("ids", ids.toArray(Long[]::new)).update();
        } catch (RuntimeException e) {
            LOG.debugf(e, "writing when %d API tokens were used failed; they are written at their next use",
                    ids.size());
        }
    }
}

package io.ticketing.reservations.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Set;
import java.util.stream.Collectors;

import io.quarkus.arc.Arc;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.junit.callback.QuarkusTestAfterEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.ticketing.reservations.locking.SkipLocking;

/**
 * After every test, the {@link Oracle} on every event the test wrote to: the service's availability equals the
 * contract's, and no promise is broken. A quota an admin edited in the test may hold more than its size (a shrink
 * is allowed to), so only its counting is checked. The lock-off twins oversell on purpose and are not checked.
 * A test that writes rows no API call could, or takes its database away, says so ({@link Skipped}). The events a test wrote to are those with a row whose {@code xmin} is a transaction begun after the test began.
 */
public class OracleCheck implements QuarkusTestBeforeEachCallback, QuarkusTestAfterEachCallback {

    /** A test (class or method) the oracle does not follow, and why. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface Skipped {

        String value();
    }

    /**
     * A test that checks quotas against their sizes itself, step by step, with what it knows of each step (why, in
     * {@code value}); after it only the rest of the oracle runs.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    public @interface SizesChecked {

        String value();
    }

    private static final String EVENTS_WRITTEN_SINCE = """
            SELECT e.slug FROM events e WHERE e.id IN (
              SELECT id FROM events WHERE xmin::text::bigint >= ?1
              UNION SELECT event_id FROM event_dates WHERE xmin::text::bigint >= ?1
              UNION SELECT event_id FROM items WHERE xmin::text::bigint >= ?1
              UNION SELECT event_id FROM quotas WHERE xmin::text::bigint >= ?1
              UNION SELECT q.event_id FROM quota_items m JOIN quotas q ON q.id = m.quota_id WHERE m.xmin::text::bigint >= ?1
              UNION SELECT event_id FROM seats WHERE xmin::text::bigint >= ?1
              UNION SELECT event_id FROM vouchers WHERE xmin::text::bigint >= ?1
              UNION SELECT event_id FROM carts WHERE xmin::text::bigint >= ?1
              UNION SELECT k.event_id FROM cart_positions c JOIN carts k ON k.id = c.cart_id WHERE c.xmin::text::bigint >= ?1
              UNION SELECT event_id FROM orders WHERE xmin::text::bigint >= ?1
              UNION SELECT o.event_id FROM order_positions p JOIN orders o ON o.id = p.order_id
                WHERE p.xmin::text::bigint >= ?1
              UNION SELECT event_id FROM waiting_list_entries WHERE xmin::text::bigint >= ?1
              UNION SELECT l.event_id FROM checkin_states s JOIN checkin_lists l ON l.id = s.list_id
                WHERE s.xmin::text::bigint >= ?1)""";

    /** Quotas an admin changed (created ones have version 0) in the test. */
    private static final String QUOTAS_EDITED_SINCE = "SELECT id FROM quotas WHERE version > 0 AND xmin::text::bigint >= ?1";

    private static volatile Long since;

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        // The 32 bits a row's xmin shows of the 64-bit transaction id.
        since = checked(context)
                ? sql().number("SELECT txid_current()") & 0xFFFF_FFFFL
                : null;
    }

    @Override
    public void afterEach(QuarkusTestMethodContext context) {
        Long begun = since;
        since = null;
        if (begun == null || context.getTestStatus().isTestFailed()) {
            return;
        }
        Sql sql = sql();
        Set<Long> edited = sql.rows(QUOTAS_EDITED_SINCE, begun).stream().map(id -> ((Number) id).longValue())
                .collect(Collectors.toSet());
        boolean sizesChecked = context.getTestInstance().getClass().getSuperclass()
                .isAnnotationPresent(SizesChecked.class)
                || context.getTestInstance().getClass().isAnnotationPresent(SizesChecked.class);
        for (Object event : sql.rows(EVENTS_WRITTEN_SINCE, begun)) {
            String slug = (String) event;
            Set<Long> excused = sizesChecked ? Oracle.quotas(sql, slug).keySet() : edited;
            assertThat(Oracle.brokenPromises(sql, slug, excused)).as("promises broken in event %s", slug).isEmpty();
            Oracle.assertServiceAgrees(sql, slug);
        }
    }

    private static boolean checked(QuarkusTestMethodContext context) {
        Class<?> test = context.getTestInstance().getClass();
        TestProfile profile = test.getAnnotation(TestProfile.class);
        return (profile == null || profile.value() != SkipLocking.class) && !test.isAnnotationPresent(Skipped.class)
                && !context.getTestMethod().isAnnotationPresent(Skipped.class);
    }

    private static Sql sql() {
        return Arc.container().instance(Sql.class).get();
    }
}

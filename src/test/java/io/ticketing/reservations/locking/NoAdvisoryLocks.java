package io.ticketing.reservations.locking;

import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Tracer;
import io.ticketing.reservations.jdbc.Jdbc;

/** The lock engine taking no lock, selected only by {@link SkipLocking}. */
@Alternative
@Singleton
public class NoAdvisoryLocks extends AdvisoryLocks {

    @Inject
    NoAdvisoryLocks(Jdbc jdbc, TransactionSynchronizationRegistry registry, DurableTransactions transactions,
            LockConfig config, GatePass pass, MeterRegistry meters, Tracer tracer) {
        super(jdbc, registry, transactions, config, pass, meters, tracer);
    }

    @Override
    protected Jdbc.Statement acquisition(Jdbc jdbc, Long[] keys, Boolean[] shared, int budgetMs) {
        return jdbc.statement("SELECT 1");
    }
}

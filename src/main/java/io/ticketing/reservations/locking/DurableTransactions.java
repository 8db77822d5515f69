package io.ticketing.reservations.locking;

import java.util.concurrent.Callable;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.Arc;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.narayana.jta.QuarkusTransactionException;
import io.ticketing.reservations.problem.InventoryChanged;
import io.ticketing.reservations.problem.TransactionAborted;

/**
 * Begins the transactions {@link DurableTransaction} stands for. A {@code @DurableTransaction} method begins one of
 * its own; inside {@link #forRequest} it joins the one begun there instead, so that what the request layer writes
 * beside the change (an {@code Idempotency-Key}'s outcome) commits with it. Either way one durable method runs per
 * transaction, and the transaction is its outermost.
 *
 * <p>A transaction the inventory changed under ({@link InventoryChanged}), or that PostgreSQL ended to break a deadlock
 * ({@link TransactionAborted}), is rolled back and run again, up to {@value #ATTEMPTS} times in all: it wrote nothing,
 * and its next run locks and reads what now holds.
 */
@ApplicationScoped
public class DurableTransactions {

    /** Registry key marking a transaction a durable method runs in; one begun inside it does not carry it. */
    private static final Object DURABLE = DurableTransaction.class;
    /** Registry key marking a request's transaction that no durable method has joined yet. */
    private static final Object JOINABLE = DurableTransactions.class;
    static final int ATTEMPTS = 3;

    private final TransactionManager transactionManager;
    private final TransactionSynchronizationRegistry registry;
    private final LockConfig config;
    private final GatePass pass;
    private final Counter retries;

    DurableTransactions(TransactionManager transactionManager, TransactionSynchronizationRegistry registry,
            LockConfig config, GatePass pass, MeterRegistry meters) {
        this.retries = Counter.builder("inventory.retries")
                .description("Transactions run again because the inventory changed under them")
                .register(meters);
        this.transactionManager = transactionManager;
        this.registry = registry;
        this.config = config;
        this.pass = pass;
    }

    /** Runs {@code work} in a new transaction that the first durable method called inside it joins. */
    public <T> T forRequest(Callable<T> work) throws Exception {
        requireNoTransaction("a request's durable transaction");
        return begin(() -> {
            registry.putResource(JOINABLE, Boolean.TRUE);
            return work.call();
        });
    }

    /** Marks the current transaction rolled back, so that nothing {@link #forRequest}'s work wrote commits. */
    public void rollBack() throws SystemException {
        transactionManager.setRollbackOnly();
    }

    <T> T runDurable(String method, Callable<T> work) throws Exception {
        if (transactionManager.getStatus() != Status.STATUS_NO_TRANSACTION
                && Boolean.TRUE.equals(registry.getResource(JOINABLE))) {
            registry.putResource(JOINABLE, Boolean.FALSE);
            registry.putResource(DURABLE, Boolean.TRUE);
            return work.call();
        }
        requireNoTransaction(method);
        return begin(() -> {
            registry.putResource(DURABLE, Boolean.TRUE);
            return work.call();
        });
    }

    /** Whether this thread is in a transaction already (a request's, for its {@code Idempotency-Key}). */
    public boolean inTransaction() {
        try {
            return transactionManager.getStatus() != Status.STATUS_NO_TRANSACTION;
        } catch (SystemException e) {
            throw new IllegalStateException("transaction status unavailable", e);
        }
    }

    boolean isDurable() throws SystemException {
        return registry.getTransactionStatus() == Status.STATUS_ACTIVE && registry.getResource(DURABLE) != null;
    }

    private void requireNoTransaction(String what) throws SystemException {
        if (transactionManager.getStatus() != Status.STATUS_NO_TRANSACTION) {
            throw new IllegalStateException(what + " needs a durable transaction but was called inside another "
                    + "transaction: locks taken inside would be released when that one ends");
        }
    }

    private <T> T begin(Callable<T> work) throws Exception {
        for (int attempt = 1;; attempt++) {
            try {
                return beginOnce(work);
            } catch (Exception e) {
                if (attempt == ATTEMPTS || !InventoryChanged.isCause(e) && !TransactionAborted.isCause(e)) {
                    throw e;
                }
                retries.increment();
            }
        }
    }

    /** In a request that passed {@link EventGate}, only once it has one of its event's transaction places. */
    private <T> T beginOnce(Callable<T> work) throws Exception {
        boolean inRequest = Arc.container().requestContext().isActive();
        if (inRequest) {
            pass.beginTransaction();
        }
        try {
            return QuarkusTransaction.requiringNew().timeout(Math.toIntExact(config.transactionTimeout().toSeconds()))
                    .call(work);
        } catch (QuarkusTransactionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            if (inRequest) {
                pass.endTransaction();
            }
        }
    }
}

package io.ticketing.reservations.locking;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.narayana.jta.QuarkusTransactionException;

@DurableTransaction
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
class DurableTransactionInterceptor {

    /** Registry key marking a transaction begun here; a transaction started inside it does not carry it. */
    static final Object DURABLE = DurableTransaction.class;

    @Inject
    TransactionManager transactionManager;

    @Inject
    TransactionSynchronizationRegistry registry;

    @Inject
    LockConfig config;

    @AroundInvoke
    Object runInOutermostTransaction(InvocationContext invocation) throws Exception {
        if (transactionManager.getStatus() != Status.STATUS_NO_TRANSACTION) {
            throw new IllegalStateException(describe(invocation)
                    + " needs a durable transaction but was called inside another transaction");
        }
        try {
            return QuarkusTransaction.requiringNew().timeout(Math.toIntExact(config.transactionTimeout().toSeconds()))
                    .call(() -> {
                        registry.putResource(DURABLE, Boolean.TRUE);
                        return invocation.proceed();
                    });
        } catch (QuarkusTransactionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    static boolean isDurable(TransactionSynchronizationRegistry registry) throws SystemException {
        return registry.getTransactionStatus() == Status.STATUS_ACTIVE && registry.getResource(DURABLE) != null;
    }

    private static String describe(InvocationContext invocation) {
        return invocation.getMethod().getDeclaringClass().getSimpleName() + "." + invocation.getMethod().getName();
    }
}

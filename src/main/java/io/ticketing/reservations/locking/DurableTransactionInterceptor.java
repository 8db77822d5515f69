package io.ticketing.reservations.locking;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

@DurableTransaction
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
class DurableTransactionInterceptor {

    @Inject
    DurableTransactions transactions;

    @AroundInvoke
    Object runInOutermostTransaction(InvocationContext invocation) throws Exception {
        return transactions.runDurable(invocation.getMethod().getDeclaringClass().getSimpleName() + "."
                + invocation.getMethod().getName(), invocation::proceed);
    }
}

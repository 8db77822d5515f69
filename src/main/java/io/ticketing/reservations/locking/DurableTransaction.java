package io.ticketing.reservations.locking;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.interceptor.InterceptorBinding;

/**
 * Runs the method in a new, outermost transaction that commits when it returns and rolls back when it
 * throws, or in the one {@link DurableTransactions#forRequest} began for its request. Calling it inside any
 * other transaction is a programming error: locks taken inside would be released when that transaction ends,
 * not when this one does. Only inside such a transaction may {@link AdvisoryLocks#lockObjects} be called.
 */
@Inherited
@InterceptorBinding
@Retention(RUNTIME)
@Target({METHOD, TYPE})
public @interface DurableTransaction {
}

package io.ticketing.reservations.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that writes rows no sequence of API calls could (a voucher redeemed more often than it has orders, say)
 * to check how they are counted: {@link OracleCheck} does not hold it to the promises after it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RowsBuiltByHand {
}

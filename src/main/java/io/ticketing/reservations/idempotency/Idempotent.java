package io.ticketing.reservations.idempotency;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.interceptor.InterceptorBinding;

/**
 * Honours {@code Idempotency-Key} on the POST methods of a resource (contract section 4). Those methods return
 * {@code Response}, so a replay can stand in for them.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Idempotent {
}

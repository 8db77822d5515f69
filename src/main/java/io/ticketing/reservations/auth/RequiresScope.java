package io.ticketing.reservations.auth;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** The scope a resource method needs; an admin token satisfies every scope. */
@Retention(RUNTIME)
@Target({TYPE, METHOD})
public @interface RequiresScope {
    Scope value();
}

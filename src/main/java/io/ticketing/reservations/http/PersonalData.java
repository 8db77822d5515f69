package io.ticketing.reservations.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The responses of this resource carry a buyer's personal data (an email): they say
 * {@code Cache-Control: no-store}, so no browser or proxy keeps a copy ({@link NoStoreFilter}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface PersonalData {
}

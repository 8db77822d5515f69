package io.ticketing.reservations.auth;

import java.security.SecureRandom;
import java.util.Base64;

/** Unguessable identifiers for things whose id is their only credential: carts and order codes. */
public final class RandomIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private RandomIds() {
    }

    /** 128 random bits, URL-safe: 22 characters. */
    public static String next() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}

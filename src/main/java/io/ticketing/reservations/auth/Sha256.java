package io.ticketing.reservations.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 of text as UTF-8: how bearer tokens are compared and how a caller is named without its token. */
public final class Sha256 {

    private Sha256() {
    }

    public static byte[] of(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

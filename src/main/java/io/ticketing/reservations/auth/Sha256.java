package io.ticketing.reservations.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 of text as UTF-8: how bearer tokens are compared and how a caller is named without its token. */
public final class Sha256 {

    /**
     * One digest per thread, reset by each {@code digest}: {@code MessageDigest.getInstance} looks its provider up
     * every time, and a bearer token is hashed on every request.
     */
    private static final ThreadLocal<MessageDigest> DIGESTS = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    private Sha256() {
    }

    public static byte[] of(String text) {
        return DIGESTS.get().digest(text.getBytes(StandardCharsets.UTF_8));
    }
}

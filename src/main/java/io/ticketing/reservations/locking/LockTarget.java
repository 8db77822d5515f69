package io.ticketing.reservations.locking;

import java.nio.ByteBuffer;

import io.ticketing.reservations.auth.Sha256;

/**
 * One object a transaction can lock, and its PostgreSQL advisory lock key.
 *
 * <p>Key layout, one signed 64-bit key space: bits 63..56 hold the type tag, bits 55..0 the row id.
 * <pre>
 *   0x01 event    0x02 quota    0x03 seat    0x04 voucher    0x05 buyer
 * </pre>
 * A buyer (contract section 8) has no row: its id is the first 56 bits of SHA-256 over its event's id and the
 * storefront's buyer id. Two buyers whose bits collide merely wait for each other; neither can pass a limit.
 * Tags are never 0, so no key of ours meets Flyway's migration lock (built from {@code 0x46 << 40}, whose
 * top byte is 0). Every tag is below 0x80, so keys are positive and sort by type, then id: an event's
 * key is always taken before the keys of the objects in it.
 */
public record LockTarget(Space space, long id) {

    public enum Space {
        EVENT(0x01), QUOTA(0x02), SEAT(0x03), VOUCHER(0x04), BUYER(0x05);

        private final long tag;

        Space(long tag) {
            this.tag = tag;
        }
    }

    static final long MAX_ID = (1L << 56) - 1;

    public LockTarget {
        if (id < 1 || id > MAX_ID) {
            throw new IllegalArgumentException(space + " id " + id + " does not fit the lock key layout");
        }
    }

    public static LockTarget event(long id) {
        return new LockTarget(Space.EVENT, id);
    }

    public static LockTarget quota(long id) {
        return new LockTarget(Space.QUOTA, id);
    }

    public static LockTarget seat(long id) {
        return new LockTarget(Space.SEAT, id);
    }

    public static LockTarget voucher(long id) {
        return new LockTarget(Space.VOUCHER, id);
    }

    /** One buyer of one event: what a per-buyer limit counts under. */
    public static LockTarget buyer(long eventId, String buyer) {
        long id = ByteBuffer.wrap(Sha256.of(eventId + ":" + buyer)).getLong() & MAX_ID;
        return new LockTarget(Space.BUYER, id == 0 ? 1 : id);
    }

    public long key() {
        return space.tag << 56 | id;
    }
}

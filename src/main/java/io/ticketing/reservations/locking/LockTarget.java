package io.ticketing.reservations.locking;

import java.nio.ByteBuffer;

import io.ticketing.reservations.auth.Sha256;

/**
 * One object a transaction can lock, and its PostgreSQL advisory lock key; {@code date} is the date of the event the
 * object belongs to (contract section 10), null for an object of the whole event. The date is not part of the key:
 * it tells {@link AdvisoryLocks} which date's lock covers the object.
 *
 * <p>Key layout, one signed 64-bit key space: bits 63..56 hold the type tag, bits 55..0 the row id.
 * <pre>
 *   0x01 event (bit 55 clear) or date (bit 55 set)    0x02 quota    0x03 seat    0x04 voucher    0x05 buyer
 *   0x06 holder
 * </pre>
 * Events and dates share a tag, telling themselves apart by bit 55, so that their ids have 55 bits and every date
 * key sorts after every event key and before every object key: a transaction takes its event's key, then its dates',
 * then its objects', as containers before what they contain.
 * A buyer (contract section 8) has no row: its id is the first 56 bits of SHA-256 over its event's id and the
 * storefront's buyer id. Two buyers whose bits collide merely wait for each other; neither can pass a limit. A
 * holder (a client address or a buyer taking queue tickets or waiting list entries, sections 8 and 9) is hashed the
 * same way.
 * Tags are never 0, so no key of ours meets Flyway's migration lock (built from {@code 0x46 << 40}, whose
 * top byte is 0). Every tag is below 0x80, so keys are positive and sort by type, then id.
 */
public record LockTarget(Space space, long id, Long date) {

    public enum Space {
        EVENT(0x01L << 56, CONTAINER_ID), DATE(0x01L << 56 | 1L << 55, CONTAINER_ID), QUOTA(0x02L << 56,
                MAX_ID), SEAT(0x03L << 56, MAX_ID), VOUCHER(0x04L << 56,
                        MAX_ID), BUYER(0x05L << 56, MAX_ID), HOLDER(0x06L << 56, MAX_ID);

        private final long prefix;
        private final long maxId;

        Space(long prefix, long maxId) {
            this.prefix = prefix;
            this.maxId = maxId;
        }
    }

    static final long MAX_ID = (1L << 56) - 1;
    private static final long CONTAINER_ID = (1L << 55) - 1;

    public LockTarget {
        if (id < 1 || id > space.maxId) {
            throw new IllegalArgumentException(space + " id " + id + " does not fit the lock key layout");
        }
    }

    public static LockTarget event(long id) {
        return new LockTarget(Space.EVENT, id, null);
    }

    public static LockTarget date(long id) {
        return new LockTarget(Space.DATE, id, id);
    }

    /** A quota of {@code date}, or of the whole event when it is null. */
    public static LockTarget quota(long id, Long date) {
        return new LockTarget(Space.QUOTA, id, date);
    }

    /** A seat of {@code date}, or of the whole event when it is null. */
    public static LockTarget seat(long id, Long date) {
        return new LockTarget(Space.SEAT, id, date);
    }

    /** A voucher valid on {@code date} only, or on any when it is null. */
    public static LockTarget voucher(long id, Long date) {
        return new LockTarget(Space.VOUCHER, id, date);
    }

    /** One buyer of one event: what a per-buyer limit counts under, on every date. */
    public static LockTarget buyer(long eventId, String buyer) {
        return new LockTarget(Space.BUYER, hashed(eventId + ":" + buyer), null);
    }

    /**
     * One {@code kind} of holder (client, buyer) of what an event hands to browsers: what a limit of queue tickets or
     * waiting list entries counts under.
     */
    public static LockTarget holder(long eventId, String kind, String holder) {
        return new LockTarget(Space.HOLDER, hashed(eventId + ":" + kind + ":" + holder), null);
    }

    private static long hashed(String name) {
        long id = ByteBuffer.wrap(Sha256.of(name)).getLong() & MAX_ID;
        return id == 0 ? 1 : id;
    }

    public long key() {
        return space.prefix | id;
    }
}

package io.ticketing.reservations.reservation;

import java.time.Instant;

import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.problem.ApiException;

/** 409: what a buyer asked for is not available, and nothing was written. Each factory is one contract code. */
public class ReservationConflict extends ApiException {

    private ReservationConflict(String code, String detail) {
        super(409, code, "Conflict", detail);
    }

    private ReservationConflict and(String member, Object value) {
        with(member, value);
        return this;
    }

    static ReservationConflict quotaExhausted(ItemForSale item, CountedQuota quota, long available, long wanted) {
        return new ReservationConflict("quota_exhausted",
                "Item '" + item.name() + "' (" + item.id() + ") is sold out in quota '" + quota.name() + "' ("
                        + quota.id() + "): " + available + " left, " + wanted + " wanted.")
                .and("item_id", item.id()).and("quota_id", quota.id()).and("available_number", available);
    }

    static ReservationConflict pastSize(CountedQuota quota, long before) {
        return new ReservationConflict("quota_exhausted",
                "Quota '" + quota.name() + "' (" + quota.id() + ") would count " + quota.committed()
                        + " places held, sold, blocked or kept for a channel (" + before
                        + " before), more than its size of "
                        + quota.size() + "; nothing was changed.")
                .and("quota_id", quota.id()).and("available_number", quota.availability().availableNumber());
    }

    static ReservationConflict notInChannel(ItemForSale item, String channel) {
        return new ReservationConflict("item_unavailable",
                "Item '" + item.name() + "' (" + item.id() + ") is not sold in channel '" + channel + "'.")
                .and("item_id", item.id()).and("channel", channel);
    }

    static ReservationConflict seatNotInChannel(Seat seat, String channel) {
        return new ReservationConflict("seat_unavailable",
                "Seat '" + seat.guid + "' is kept for other channels than '" + channel + "'.")
                .and("seat_guid", seat.guid).and("channel", channel);
    }

    static ReservationConflict notOnSale(ItemForSale item) {
        return new ReservationConflict("quota_exhausted",
                "Item '" + item.name() + "' (" + item.id() + ") is not on sale: it is inactive or in no quota.")
                .and("item_id", item.id());
    }

    static ReservationConflict seatUnavailable(Seat seat) {
        return new ReservationConflict("seat_unavailable",
                "Seat '" + seat.guid + "' is taken, blocked or reserved.").and("seat_guid", seat.guid);
    }

    public static ReservationConflict noSeatsLeft(long itemId, int wanted, int free) {
        return new ReservationConflict("seat_unavailable",
                wanted + " seats of item " + itemId + " wanted; " + free + " are free.")
                .and("item_id", itemId).and("available_number", free);
    }

    static ReservationConflict seatRequired(ItemForSale item) {
        return new ReservationConflict("seat_required",
                "Item '" + item.name() + "' (" + item.id() + ") is sold only with a seat; send seat_guid.")
                .and("item_id", item.id());
    }

    static ReservationConflict seatNotAllowed(ItemForSale item, Seat seat) {
        return new ReservationConflict("seat_not_allowed",
                "Seat '" + seat.guid + "' cannot be sold as item '" + item.name() + "' (" + item.id() + ").")
                .and("item_id", item.id()).and("seat_guid", seat.guid);
    }

    static ReservationConflict seatNotAllowedByGuid(ItemForSale item, String guid) {
        return new ReservationConflict("seat_not_allowed",
                "Seat '" + guid + "' cannot be sold as item '" + item.name() + "' (" + item.id() + ").")
                .and("item_id", item.id()).and("seat_guid", guid);
    }

    static ReservationConflict voucherInvalid(Voucher voucher, String reason) {
        return new ReservationConflict("voucher_invalid",
                "Voucher '" + voucher.code + "' " + reason + ".").and("voucher_code", voucher.code);
    }

    public static ReservationConflict voucherUnknown(String code) {
        return new ReservationConflict("voucher_invalid", "There is no voucher '" + code + "'.")
                .and("voucher_code", code);
    }

    static ReservationConflict voucherExpired(Voucher voucher) {
        return new ReservationConflict("voucher_expired",
                "Voucher '" + voucher.code + "' was valid until " + voucher.validUntil + ".")
                .and("voucher_code", voucher.code);
    }

    public static ReservationConflict holdLimit(long positionId, Instant holdableUntil) {
        return new ReservationConflict("hold_limit",
                "Position " + positionId + " can be held until " + holdableUntil
                        + " at most; check out before then, or add the ticket again.")
                .and("position_id", positionId).and("holdable_until", holdableUntil);
    }

    static ReservationConflict buyerRequired(ItemForSale item) {
        return new ReservationConflict("buyer_required",
                "Item '" + item.name() + "' (" + item.id() + ") is limited per buyer; open the cart with a buyer.")
                .and("item_id", item.id());
    }

    static ReservationConflict itemBuyerLimit(ItemForSale item, long held, long wanted) {
        return new ReservationConflict("buyer_limit",
                "One buyer may have " + item.maxPerBuyer() + " of item '" + item.name() + "' (" + item.id()
                        + "); this buyer has " + held + ", " + wanted + " more wanted.")
                .and("item_id", item.id()).and("max_per_buyer", item.maxPerBuyer()).and("held", held);
    }

    static ReservationConflict eventBuyerLimit(int limit, long held, long wanted) {
        return new ReservationConflict("buyer_limit",
                "One buyer may have " + limit + " tickets of this event; this buyer has " + held + ", " + wanted
                        + " more wanted.")
                .and("max_per_buyer", limit).and("held", held);
    }

    static ReservationConflict voucherExhausted(Voucher voucher, long left, long wanted) {
        return new ReservationConflict("voucher_exhausted",
                "Voucher '" + voucher.code + "' can be used " + left + " more times, " + wanted + " wanted.")
                .and("voucher_code", voucher.code);
    }

    static ReservationConflict dateRequired(ItemForSale item) {
        return new ReservationConflict("date_required",
                "Item '" + item.name() + "' (" + item.id() + ") is sold per date in this event; send date_id.")
                .and("item_id", item.id());
    }

    public static ReservationConflict dateUnavailable(long dateId) {
        return new ReservationConflict("date_unavailable", "Date " + dateId + " is not on sale.")
                .and("date_id", dateId);
    }

    /** What a bundle brought leaves only with its bundle (contract section 10). */
    public static ReservationConflict bundled(long positionId, long bundlePositionId) {
        return new ReservationConflict("position_bundled",
                "Position " + positionId + " came with bundle position " + bundlePositionId
                        + "; remove, change, cancel or transfer the bundle position instead.")
                .and("position_id", positionId).and("bundled_in", bundlePositionId);
    }

    /** A ticket inside the venue keeps its holder until it is scanned out (contract section 14). */
    public static ReservationConflict positionInside(long positionId) {
        return new ReservationConflict("position_inside", "Position " + positionId
                + " is inside the venue on a check-in list; it can be changed, canceled or change hands once it has been"
                + " scanned out.")
                .and("position_id", positionId);
    }

    static ReservationConflict noActiveDate(ItemForSale item) {
        return new ReservationConflict("date_unavailable",
                "Item '" + item.name() + "' (" + item.id() + ") is a pass for every date, and no date is on sale.")
                .and("item_id", item.id());
    }

    static ReservationConflict passSeatMissing(ItemForSale item, String guid, long dateId) {
        return new ReservationConflict("seat_not_allowed",
                "Seat '" + guid + "' cannot be sold as item '" + item.name() + "' (" + item.id() + ") on date "
                        + dateId + ", and a pass takes its seat on every date.")
                .and("item_id", item.id()).and("seat_guid", guid).and("date_id", dateId);
    }
}

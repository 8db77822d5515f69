package io.ticketing.reservations.inventory;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;
import io.ticketing.reservations.reservation.Reservations;

/** Vouchers. One that blocks quota or holds a seat makes things less available, so it is reserved first. */
@ApplicationScoped
public class VoucherService {

    private final Reservations reservations;

    VoucherService(Reservations reservations) {
        this.reservations = reservations;
    }

    @DurableTransaction
    public Voucher create(Event event, InventoryRequests.NewVoucher request) {
        if (Voucher.findByCode(event.id, request.code()).isPresent()) {
            throw new ApiException(409, "voucher_code_taken", "Conflict",
                    "A voucher with code '" + request.code() + "' exists in this event (codes ignore case).");
        }
        Voucher voucher = new Voucher();
        voucher.eventId = event.id;
        voucher.code = request.code();
        voucher.maxUsages = request.maxUsages() == null ? 1 : request.maxUsages();
        voucher.validUntil = request.validUntil();
        voucher.blockQuota = Boolean.TRUE.equals(request.blockQuota());
        voucher.itemId = request.itemId();
        voucher.quotaId = request.quotaId();
        if (voucher.itemId != null && voucher.quotaId != null) {
            throw new ValidationException("quota_id", "a voucher is restricted to an item or a quota, not both");
        }
        if (voucher.itemId != null && Item.findInEvent(event.id, voucher.itemId).isEmpty()) {
            throw new NotFoundException("item", voucher.itemId);
        }
        if (voucher.quotaId != null && Quota.findInEvent(event.id, voucher.quotaId).isEmpty()) {
            throw new NotFoundException("quota", voucher.quotaId);
        }
        Seat seat = request.seatGuid() == null ? null : seat(event, voucher, request.seatGuid());
        if (voucher.blockQuota && voucher.itemId == null && voucher.quotaId == null) {
            throw new ValidationException("block_quota",
                    "needs an item_id, quota_id or seat_guid to know what to block");
        }
        reservations.reserveForVoucher(voucher, seat);
        voucher.persistAndFlush();
        return voucher;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Voucher get(Event event, String code) {
        return Voucher.findByCode(event.id, code).orElseThrow(() -> new NotFoundException("voucher", code));
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public String seatGuid(Voucher voucher) {
        return voucher.seatId == null ? null : Seat.<Seat>findById(voucher.seatId).guid;
    }

    /** A seat-bound voucher is for the seat's item; a different item_id could never be used. */
    private static Seat seat(Event event, Voucher voucher, String guid) {
        Seat seat = Seat.findByGuid(event.id, guid).orElseThrow(() -> new NotFoundException("seat", guid));
        if (voucher.itemId != null && voucher.itemId != seat.itemId) {
            throw new ValidationException("item_id", "seat " + guid + " is sold as item " + seat.itemId);
        }
        if (voucher.quotaId == null) {
            voucher.itemId = seat.itemId;
        }
        voucher.seatId = seat.id;
        return seat;
    }
}

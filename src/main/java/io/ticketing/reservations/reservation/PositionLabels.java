package io.ticketing.reservations.reservation;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;

/** What the views of carts and orders show beside the ids: seat guids, voucher codes and the total. */
public record PositionLabels(Map<Long, String> seatGuids, Map<Long, String> voucherCodes, BigDecimal total) {

    public static PositionLabels of(List<? extends HeldPosition> positions) {
        return new PositionLabels(
                Seat.guidsOf(positions.stream().map(HeldPosition::seatId).filter(Objects::nonNull).toList()),
                Voucher.codesOf(
                        positions.stream().map(HeldPosition::voucherId).filter(Objects::nonNull).toList()),
                positions.stream().map(HeldPosition::price).reduce(BigDecimal.ZERO, BigDecimal::add));
    }

    /** The seat's guid, or the guid a pass holds on every date. */
    public String seatGuid(HeldPosition position) {
        return position.passSeatGuid() != null ? position.passSeatGuid() : seatGuids.get(position.seatId());
    }

    public String voucherCode(HeldPosition position) {
        return voucherCodes.get(position.voucherId());
    }
}

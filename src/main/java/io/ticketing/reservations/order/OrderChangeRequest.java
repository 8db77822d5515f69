package io.ticketing.reservations.order;

import java.util.List;
import java.util.Locale;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.ticketing.reservations.problem.ValidationException;

/** The body of {@code POST /orders/{code}/changes}: operations applied in order, all or nothing. */
public record OrderChangeRequest(@NotNull @Size(min = 1, max = 50) List<@Valid @NotNull Operation> operations) {

    /**
     * One operation: {@code change_seat} ({@code position_id}, {@code seat_guid}), {@code change_item}
     * ({@code position_id}, {@code item_id}), {@code add} ({@code item_id}, {@code seat_guid?}, {@code voucher_code?},
     * {@code date_id?}) or {@code cancel_position} ({@code position_id}). Fields an operation does not take must be
     * absent. A changed position keeps its date; a new one names its date in an event with dates.
     */
    public record Operation(
            @Schema(enumeration = {
                    "change_seat", "change_item", "add",
                    "cancel_position"}) @NotNull @Pattern(regexp = "change_seat|change_item|add|cancel_position", message = "must be change_seat, change_item, add or cancel_position") String op,
            @Schema(nullable = true) @Positive Long positionId,
            @Schema(nullable = true) @Positive Long itemId,
            @Schema(nullable = true) @Size(min = 1, max = 100) String seatGuid,
            @Schema(nullable = true) @Size(min = 1, max = 100) String voucherCode,
            @Schema(nullable = true, description = "add: the date of an event with dates") @Positive Long dateId){

        enum Kind {
            CHANGE_SEAT, CHANGE_ITEM, ADD, CANCEL_POSITION
        }

        /** The operation, once its fields are those it takes (else 400 naming the field of operation {@code index}). */
        Kind kind(int index) {
            Kind kind = Kind.valueOf(op.toUpperCase(Locale.ROOT));
            boolean position = kind != Kind.ADD;
            boolean item = kind == Kind.CHANGE_ITEM || kind == Kind.ADD;
            boolean seat = kind == Kind.CHANGE_SEAT || kind == Kind.ADD;
            boolean voucher = kind == Kind.ADD;
            require(index, "position_id", positionId != null, position);
            require(index, "item_id", itemId != null, item);
            require(index, "seat_guid", seatGuid != null, seat, kind == Kind.CHANGE_SEAT);
            require(index, "voucher_code", voucherCode != null, voucher, false);
            require(index, "date_id", dateId != null, kind == Kind.ADD, false);
            return kind;
        }

        private void require(int index, String field, boolean present, boolean taken) {
            require(index, field, present, taken, taken);
        }

        private void require(int index, String field, boolean present, boolean taken, boolean needed) {
            String name = "operations[" + index + "]." + field;
            if (present && !taken) {
                throw new ValidationException(name, "is not taken by " + op);
            }
            if (!present && needed) {
                throw new ValidationException(name, "is required by " + op);
            }
        }
    }
}

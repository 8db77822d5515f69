package io.ticketing.reservations.order;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.ticketing.reservations.reservation.HeldPosition;

/** One sold ticket: the item, seat, voucher and price it had when the order was placed. */
@Entity
@Table(name = "order_positions")
public class OrderPosition extends HeldPosition {

    @Column(name = "order_id")
    public long orderId;
}

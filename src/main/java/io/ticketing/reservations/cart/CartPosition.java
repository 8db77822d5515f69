package io.ticketing.reservations.cart;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.ticketing.reservations.reservation.HeldPosition;

/** One held ticket; it counts against its quotas, seat and voucher while {@code expires >= now}. */
@Entity
@Table(name = "cart_positions")
public class CartPosition extends HeldPosition {

    @Column(name = "cart_id")
    public String cartId;

    public Instant expires;
}

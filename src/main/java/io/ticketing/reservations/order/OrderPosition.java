package io.ticketing.reservations.order;

import java.sql.ResultSet;
import java.sql.SQLException;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.ticketing.reservations.reservation.HeldPosition;

/** One sold ticket: the item, seat, voucher and price it had when the order was placed. */
@Entity
@Table(name = "order_positions")
public class OrderPosition extends HeldPosition {

    /** The columns {@link #read} reads. */
    static final String COLUMNS = HELD_COLUMNS + ", order_id";

    @Column(name = "order_id")
    public long orderId;

    /** A row of {@link #COLUMNS}, not managed by Hibernate. */
    static OrderPosition read(ResultSet row) throws SQLException {
        OrderPosition position = new OrderPosition();
        position.readHeld(row);
        position.orderId = row.getLong(6);
        return position;
    }
}

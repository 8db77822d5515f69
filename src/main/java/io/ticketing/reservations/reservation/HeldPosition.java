package io.ticketing.reservations.reservation;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;

import jakarta.persistence.Column;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.ticketing.reservations.jdbc.Jdbc;

/** What a cart position and an order position both hold: an item, maybe a seat and a voucher, at a price. */
@MappedSuperclass
public abstract class HeldPosition extends PanacheEntityBase {

    /** The columns {@link #readHeld} reads, first in a statement's result, in this order. */
    public static final String HELD_COLUMNS = "id, item_id, seat_id, voucher_id, price";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "item_id")
    public long itemId;

    @Column(name = "seat_id")
    public Long seatId;

    @Column(name = "voucher_id")
    public Long voucherId;

    public BigDecimal price;

    /** Fills the fields every position has from columns 1 to 5 of {@code row}: {@link #HELD_COLUMNS}. */
    protected void readHeld(ResultSet row) throws SQLException {
        id = row.getLong(1);
        itemId = row.getLong(2);
        seatId = Jdbc.nullableLong(row, 3);
        voucherId = Jdbc.nullableLong(row, 4);
        price = row.getBigDecimal(5);
    }

    /** This position as something to hold again, for a re-check under the locks. */
    public Claim claim() {
        return new Claim(itemId, seatId, voucherId);
    }
}

package io.ticketing.reservations.reservation;

import java.math.BigDecimal;

import jakarta.persistence.Column;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** What a cart position and an order position both hold: an item, maybe a seat and a voucher, at a price. */
@MappedSuperclass
public abstract class HeldPosition extends PanacheEntityBase {

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

    /** This position as something to hold again, for a re-check under the locks. */
    public Claim claim() {
        return new Claim(itemId, seatId, voucherId);
    }
}

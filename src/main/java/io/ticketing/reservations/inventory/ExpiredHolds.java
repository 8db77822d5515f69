package io.ticketing.reservations.inventory;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;

/**
 * Expired holds count for nothing but still name what they held: when an item, voucher or date is deleted they go
 * with it, and with each what it brought as a bundle (contract section 10), which no foreign key takes (V21).
 */
@ApplicationScoped
public class ExpiredHolds {

    /** {@code %1$s}: an {@link Of}'s column. */
    private static final String DELETE = """
            DELETE FROM cart_positions WHERE expires < now()
              AND (%1$s = :id OR bundled_in IN (SELECT id FROM cart_positions WHERE %1$s = :id AND expires < now()))""";

    /** What an expired hold names. */
    public enum Of {
        ITEM("item_id"), VOUCHER("voucher_id"), DATE("date_id");

        private final String statement;

        Of(String column) {
            statement = DELETE.formatted(column);
        }
    }

    private final Jdbc jdbc;

    ExpiredHolds(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** The expired holds of an item, voucher or date about to be deleted, with what they brought. */
    public void deleteOf(Of of, long id) {
        jdbc.statement(of.statement).set("id", id).update();
    }
}

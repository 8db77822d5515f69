package io.ticketing.reservations.order;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Converter;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A purchase. Pending and paid orders hold their positions' capacity; expired and canceled ones do not. */
@Entity
@Table(name = "orders")
public class Order extends PanacheEntityBase {

    public enum Status {
        PENDING, PAID, EXPIRED, CANCELED;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "event_id")
    public long eventId;

    public String code;

    public String email;

    @Convert(converter = StatusColumn.class)
    public Status status;

    /** The payment deadline. */
    public Instant expires;

    @Column(name = "created_at", updatable = false)
    public Instant createdAt;

    @Version
    public long version;

    public static Optional<Order> findByCode(long eventId, String code) {
        return find("code = ?1 and eventId = ?2", code, eventId).firstResultOptional();
    }

    public List<OrderPosition> positions() {
        return OrderPosition.list("orderId = ?1 order by id", id);
    }

    /** The column holds the lower-case names the SPEC and the SQL counting rules use. */
    @Converter
    static class StatusColumn implements AttributeConverter<Status, String> {

        @Override
        public String convertToDatabaseColumn(Status status) {
            return status.value();
        }

        @Override
        public Status convertToEntityAttribute(String column) {
            return Status.valueOf(column.toUpperCase(Locale.ROOT));
        }
    }
}

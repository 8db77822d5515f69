package io.ticketing.reservations.cart;

import java.io.IOException;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import io.quarkus.jackson.ObjectMapperCustomizer;
import io.ticketing.reservations.http.FastInstants;

/**
 * A cart's position written field by field, as Jackson would write the record (same names, same order, nulls
 * written): every add answers the whole cart, and in a cart of tens of positions Jackson's per-field machinery
 * (an accessor called by reflection and a serializer looked up for each value) was most of the answer's cost.
 * Registered on the mapper rather than on the record, so that the OpenAPI document still describes the record.
 */
@Singleton
public class CartPositionJson implements ObjectMapperCustomizer {

    private static final SerializableString ID = new SerializedString("id");
    private static final SerializableString ITEM_ID = new SerializedString("item_id");
    private static final SerializableString SEAT_GUID = new SerializedString("seat_guid");
    private static final SerializableString VOUCHER_CODE = new SerializedString("voucher_code");
    private static final SerializableString PRICE = new SerializedString("price");
    private static final SerializableString EXPIRES = new SerializedString("expires");
    private static final SerializableString DATE_ID = new SerializedString("date_id");
    private static final SerializableString BUNDLED_IN = new SerializedString("bundled_in");

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("cart-positions").addSerializer(CartView.Position.class, new Writer()));
    }

    static final class Writer extends StdSerializer<CartView.Position> {

        Writer() {
            super(CartView.Position.class);
        }

        @Override
        public void serialize(CartView.Position position, JsonGenerator json, SerializerProvider provider)
                throws IOException {
            json.writeStartObject(position);
            json.writeFieldName(ID);
            json.writeNumber(position.id());
            json.writeFieldName(ITEM_ID);
            json.writeNumber(position.itemId());
            json.writeFieldName(SEAT_GUID);
            json.writeString(position.seatGuid());
            json.writeFieldName(VOUCHER_CODE);
            json.writeString(position.voucherCode());
            json.writeFieldName(PRICE);
            json.writeString(position.price());
            json.writeFieldName(EXPIRES);
            json.writeString(FastInstants.format(position.expires()));
            json.writeFieldName(DATE_ID);
            writeNullable(json, position.dateId());
            json.writeFieldName(BUNDLED_IN);
            writeNullable(json, position.bundledIn());
            json.writeEndObject();
        }

        private static void writeNullable(JsonGenerator json, Long number) throws IOException {
            if (number == null) {
                json.writeNull();
            } else {
                json.writeNumber(number);
            }
        }
    }
}

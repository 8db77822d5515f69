package io.ticketing.reservations.http;

import java.io.IOException;
import java.time.Instant;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.type.ReferenceType;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;

import io.quarkus.jackson.ObjectMapperCustomizer;

/**
 * Strict JSON for the whole API (contract section 4): a body is one JSON document with the types its schema names.
 * Jackson is lenient by default ({@code 1.5} becomes {@code 1}, {@code "5"} becomes {@code 5}, {@code 12} becomes
 * a price, {@code ""} becomes a null date, trailing content is ignored); here each of those is a
 * {@code validation_failed} naming the field. Strings may not hold NUL or a lone surrogate, which PostgreSQL cannot
 * store, and times are RFC 3339 strings within the years 0001 to 9999, which PostgreSQL can.
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    /** Last, so that no module Quarkus registers replaces the deserializers below. */
    @Override
    public int priority() {
        return MINIMUM_PRIORITY;
    }

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
        mapper.coercionConfigDefaults().setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        for (LogicalType scalar : new LogicalType[]{LogicalType.Integer, LogicalType.Float, LogicalType.Boolean}) {
            mapper.coercionConfigFor(scalar).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        }
        for (CoercionInputShape scalar : new CoercionInputShape[]{CoercionInputShape.Integer,
                CoercionInputShape.Float, CoercionInputShape.Boolean}) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(scalar, CoercionAction.Fail);
        }
        mapper.registerModule(new SimpleModule("strict-input")
                .addDeserializer(String.class, new StorableString())
                .addDeserializer(Instant.class, new StorableInstant())
                .setDeserializerModifier(new AbsentIsNotNull()));
    }

    /**
     * A PATCH is a JSON merge patch (contract section 4): an absent field stays, {@code null} removes. Its bodies
     * say so with {@code Optional} fields: null when absent, empty when null. Jackson gives an absent record
     * component the deserializer's null value, {@code Optional.empty()}, so a PATCH of a quota's name made it
     * unlimited; here an absent {@code Optional} is null.
     */
    static final class AbsentIsNotNull extends BeanDeserializerModifier {

        @Override
        public JsonDeserializer<?> modifyReferenceDeserializer(DeserializationConfig config, ReferenceType type,
                BeanDescription description, JsonDeserializer<?> deserializer) {
            return new AbsentStaysAbsent(deserializer);
        }
    }

    static final class AbsentStaysAbsent extends DelegatingDeserializer {

        AbsentStaysAbsent(JsonDeserializer<?> delegate) {
            super(delegate);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new AbsentStaysAbsent(delegate);
        }

        @Override
        public Object getAbsentValue(DeserializationContext context) {
            return null;
        }
    }

    /**
     * Any string PostgreSQL's UTF-8 text can hold. It cannot hold U+0000, and a surrogate without its pair
     * ({@code "\ud800"}, which JSON escapes allow) is no character at all: the driver would store it as '?'. A client
     * that sends either means something else.
     */
    static final class StorableString extends StdScalarDeserializer<String> {

        StorableString() {
            super(String.class);
        }

        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            String value = StringDeserializer.instance.deserialize(parser, context);
            if (value != null && value.indexOf('\0') >= 0) {
                return (String) context.handleWeirdStringValue(String.class, value, "must not contain NUL");
            }
            if (value != null && hasLoneSurrogate(value)) {
                return (String) context.handleWeirdStringValue(String.class, value,
                        "must not contain a lone surrogate");
            }
            return value;
        }

        private static boolean hasLoneSurrogate(String value) {
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (Character.isHighSurrogate(c) && i + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                } else if (Character.isSurrogate(c)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** RFC 3339 only: a string, never epoch numbers, and a date PostgreSQL's timestamptz can store. */
    static final class StorableInstant extends StdScalarDeserializer<Instant> {

        StorableInstant() {
            super(Instant.class);
        }

        @Override
        public Instant deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.currentToken() != JsonToken.VALUE_STRING) {
                return (Instant) context.handleUnexpectedToken(Instant.class, parser);
            }
            Instant value = InstantDeserializer.INSTANT.deserialize(parser, context);
            if (value != null && (value.isBefore(EARLIEST) || value.isAfter(LATEST))) {
                return (Instant) context.handleWeirdStringValue(Instant.class, parser.getText(),
                        "must be between the years 0001 and 9999");
            }
            return value;
        }
    }
}

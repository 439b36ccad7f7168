package io.queuekit.redis;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import io.queuekit.Codec;
import io.queuekit.SerializationException;
import java.io.IOException;
import java.util.Objects;

/**
 * JSON payloads with Jackson, decoded into exactly the type named when the codec was made.
 *
 * <p>Bodies read from Redis are untrusted input: anyone who can write to the queue's keys can
 * write a body. So this codec never enables default typing, and it refuses class names in
 * {@code @JsonTypeInfo(use = CLASS)} properties (the validator allows no class), which are the way
 * in for the known Jackson deserialization gadgets. Polymorphism by logical names declared with
 * {@code @JsonSubTypes} still works. A mapper passed in is copied, with default typing turned off,
 * so the caller's mapper is not changed.
 *
 * <p>Thread-safe.
 *
 * @param <T> the payload type
 */
public final class JacksonCodec<T> implements Codec<T> {
    private final ObjectReader reader;
    private final ObjectWriter writer;
    private final String typeName;

    private JacksonCodec(ObjectMapper mapper, JavaType type) {
        this.reader = mapper.readerFor(type);
        this.writer = mapper.writerFor(type);
        this.typeName = type.toString();
    }

    /** A codec for {@code type} with a plain {@link ObjectMapper}. */
    public static <T> JacksonCodec<T> of(Class<T> type) {
        return of(new ObjectMapper(), type);
    }

    /** A codec for {@code type} using a copy of {@code mapper} (with default typing turned off). */
    public static <T> JacksonCodec<T> of(ObjectMapper mapper, Class<T> type) {
        Objects.requireNonNull(type, "type");
        ObjectMapper safe = harden(mapper);
        return new JacksonCodec<>(safe, safe.constructType(type));
    }

    /** A codec for a generic type such as {@code new TypeReference<List<Order>>() {}}. */
    public static <T> JacksonCodec<T> of(ObjectMapper mapper, TypeReference<T> type) {
        Objects.requireNonNull(type, "type");
        ObjectMapper safe = harden(mapper);
        return new JacksonCodec<>(safe, safe.constructType(type));
    }

    private static ObjectMapper harden(ObjectMapper mapper) {
        Objects.requireNonNull(mapper, "mapper");
        ObjectMapper copy = mapper.copy();
        copy.deactivateDefaultTyping();
        copy.setPolymorphicTypeValidator(BasicPolymorphicTypeValidator.builder().build());
        return copy;
    }

    @Override
    public byte[] encode(T payload) {
        Objects.requireNonNull(payload, "payload");
        try {
            return writer.writeValueAsBytes(payload);
        } catch (IOException e) {
            throw new SerializationException(
                    "cannot encode " + payload.getClass().getName() + " as JSON: " + detail(e), e);
        }
    }

    @Override
    public T decode(byte[] bytes) {
        try {
            T value = reader.readValue(bytes);
            if (value == null) {
                throw new SerializationException("JSON body is null, expected " + typeName, null);
            }
            return value;
        } catch (IOException e) {
            throw new SerializationException("cannot decode JSON body as " + typeName + ": " + detail(e), e);
        }
    }

    private static String detail(IOException e) {
        return e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                ? j.getOriginalMessage()
                : e.getMessage();
    }

    @Override
    public String toString() {
        return "JacksonCodec[" + typeName + "]";
    }
}

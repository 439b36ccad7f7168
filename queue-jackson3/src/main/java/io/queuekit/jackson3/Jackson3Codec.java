package io.queuekit.jackson3;

import io.queuekit.Codec;
import io.queuekit.SerializationException;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DatabindContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.PolymorphicTypeValidator;

/**
 * JSON payloads with Jackson 3 ({@code tools.jackson}), decoded into exactly the type named when
 * the codec was made: the Jackson 3 twin of the Jackson 2 {@code io.queuekit.redis.JacksonCodec},
 * with the same contract. Immutable and thread-safe; one instance can serve a whole queue.
 *
 * <p>Easy to get wrong: bodies read from a queue are untrusted input (anyone who can write the
 * queue's keys can write one). So the codec never enables default typing, and it refuses class
 * names in {@code @JsonTypeInfo(use = CLASS)} and {@code MINIMAL_CLASS} properties, the way in for
 * the known deserialization gadgets, whatever the mapper passed in says: its
 * {@link PolymorphicTypeValidator} allows no class and denies the name before the class is looked
 * up, so a named class is never even loaded. Logical names ({@code @JsonSubTypes},
 * {@code use = NAME}) still work. A mapper passed in is not changed: the codec builds its own with
 * {@link ObjectMapper#rebuild()}, keeping the caller's modules, features and naming;
 * {@link #of(Class)} uses a plain {@link JsonMapper}, with Jackson 3's defaults ({@code java.time}
 * values as ISO-8601 strings, unknown properties ignored).
 *
 * <p>{@link #decode} never returns null: a malformed body, one that does not fit the type, a refused
 * class name and a JSON {@code null} all throw {@link SerializationException} naming the target
 * type, with the {@link JacksonException} as its cause when Jackson failed.
 *
 * @param <T> the payload type
 */
public final class Jackson3Codec<T> implements Codec<T> {
    private final ObjectReader reader;
    private final ObjectWriter writer;
    private final String typeName;

    private Jackson3Codec(ObjectMapper mapper, JavaType type) {
        this.reader = mapper.readerFor(type);
        this.writer = mapper.writerFor(type);
        this.typeName = type.toCanonical();
    }

    /**
     * A codec for {@code type} with a plain {@link JsonMapper}.
     *
     * @param type the payload type
     * @param <T> the payload type
     * @return a codec that decodes into {@code type} only
     * @throws NullPointerException if {@code type} is null
     */
    public static <T> Jackson3Codec<T> of(Class<T> type) {
        return of(new JsonMapper(), type);
    }

    /**
     * A codec for {@code type} using a copy of {@code mapper} with default typing turned off and
     * class names refused; {@code mapper} itself is not changed.
     *
     * @param mapper the mapper whose settings (modules, features, naming) the codec keeps
     * @param type the payload type
     * @param <T> the payload type
     * @return a codec that decodes into {@code type} only
     * @throws NullPointerException if an argument is null
     */
    public static <T> Jackson3Codec<T> of(ObjectMapper mapper, Class<T> type) {
        Objects.requireNonNull(type, "type");
        ObjectMapper safe = harden(mapper);
        return new Jackson3Codec<>(safe, safe.constructType(type));
    }

    /**
     * A codec for a generic type such as {@code new TypeReference<List<Order>>() {}}, using a copy
     * of {@code mapper} with default typing turned off and class names refused.
     *
     * @param mapper the mapper whose settings (modules, features, naming) the codec keeps
     * @param type the payload type, with its type arguments
     * @param <T> the payload type
     * @return a codec that decodes into {@code type} only
     * @throws NullPointerException if an argument is null
     */
    public static <T> Jackson3Codec<T> of(ObjectMapper mapper, TypeReference<T> type) {
        Objects.requireNonNull(type, "type");
        ObjectMapper safe = harden(mapper);
        return new Jackson3Codec<>(safe, safe.constructType(type));
    }

    /**
     * A codec for a type built with Jackson's {@link tools.jackson.databind.type.TypeFactory},
     * using a copy of {@code mapper} with default typing turned off and class names refused. As
     * with {@code ObjectMapper.readValue(..., JavaType)}, the caller vouches that {@code type}
     * stands for {@code T}.
     *
     * @param mapper the mapper whose settings (modules, features, naming) the codec keeps
     * @param type the payload type
     * @param <T> the payload type that {@code type} stands for
     * @return a codec that decodes into {@code type} only
     * @throws NullPointerException if an argument is null
     */
    public static <T> Jackson3Codec<T> of(ObjectMapper mapper, JavaType type) {
        Objects.requireNonNull(type, "type");
        return new Jackson3Codec<>(harden(mapper), type);
    }

    private static ObjectMapper harden(ObjectMapper mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return mapper.rebuild()
                .deactivateDefaultTyping()
                .polymorphicTypeValidator(NoClassNames.INSTANCE)
                .build();
    }

    /**
     * The payload as JSON bytes.
     *
     * @throws NullPointerException if {@code payload} is null
     * @throws SerializationException if Jackson cannot write the payload
     */
    @Override
    public byte[] encode(T payload) {
        Objects.requireNonNull(payload, "payload");
        try {
            return writer.writeValueAsBytes(payload);
        } catch (JacksonException e) {
            throw new SerializationException(
                    "cannot encode " + payload.getClass().getName() + " as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The payload these JSON bytes stand for; never null.
     *
     * @throws NullPointerException if {@code bytes} is null
     * @throws SerializationException if the body is malformed, does not fit the type, names a
     *     class, or is JSON {@code null}
     */
    @Override
    public T decode(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        T value;
        try {
            value = reader.readValue(bytes);
        } catch (JacksonException e) {
            throw new SerializationException(
                    "cannot decode JSON body as " + typeName + ": " + e.getOriginalMessage(), e);
        }
        if (value == null) {
            throw new SerializationException("JSON body is null, expected " + typeName, null);
        }
        return value;
    }

    @Override
    public String toString() {
        return "Jackson3Codec[" + typeName + "]";
    }

    /**
     * Allows no class named in a body. Denying the name, rather than the resolved type, means
     * the class is never loaded, so not even its static initializer runs. Base types stay
     * undecided, so a payload type with a {@code CLASS} property still decodes bodies that leave
     * the property empty.
     */
    private static final class NoClassNames extends PolymorphicTypeValidator.Base {
        private static final long serialVersionUID = 1L;
        static final NoClassNames INSTANCE = new NoClassNames();

        @Override
        public Validity validateSubClassName(DatabindContext ctxt, JavaType baseType, String subClassName) {
            return Validity.DENIED;
        }

        @Override
        public Validity validateSubType(DatabindContext ctxt, JavaType baseType, JavaType subType) {
            return Validity.DENIED;
        }
    }
}

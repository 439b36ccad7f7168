package io.queuekit;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Turns payloads into bytes for storage and back. Implementations must be thread-safe and must
 * decode only into the type they were made for: a codec never chooses a class from the stored
 * bytes (no polymorphic type information read from the queue), so a body written by an attacker
 * cannot instantiate arbitrary classes.
 *
 * <p>{@link #encode} receives a non-null payload; {@link #decode} receives the bytes
 * {@code encode} produced, or bytes written by someone else to the same keys. Both report failure
 * with {@link SerializationException}.
 *
 * @param <T> the payload type
 */
public interface Codec<T> {

    /** The payload as bytes; never returns null. */
    byte[] encode(T payload);

    /** The payload these bytes stand for; never returns null. */
    T decode(byte[] bytes);

    /** Strings as UTF-8 bytes. Malformed input decodes with replacement characters. */
    static Codec<String> utf8() {
        return Utf8Codec.INSTANCE;
    }

    /** Bytes as they are (copied on the way in and out, so callers may reuse their arrays). */
    static Codec<byte[]> bytes() {
        return BytesCodec.INSTANCE;
    }
}

enum Utf8Codec implements Codec<String> {
    INSTANCE;

    @Override
    public byte[] encode(String payload) {
        return Objects.requireNonNull(payload, "payload").getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String decode(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Codec.utf8()";
    }
}

enum BytesCodec implements Codec<byte[]> {
    INSTANCE;

    @Override
    public byte[] encode(byte[] payload) {
        return Objects.requireNonNull(payload, "payload").clone();
    }

    @Override
    public byte[] decode(byte[] bytes) {
        return bytes.clone();
    }

    @Override
    public String toString() {
        return "Codec.bytes()";
    }
}

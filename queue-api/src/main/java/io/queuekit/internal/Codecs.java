package io.queuekit.internal;

import io.queuekit.Codec;
import io.queuekit.SerializationException;

/**
 * Runs a {@link Codec} the same way on every transport: whatever an encode or decode throws, or a
 * null it returns, becomes a {@link SerializationException} naming the codec. So a decode failure
 * is an undecodable message everywhere (managed consumers dead-letter it at once, since no retry
 * can decode it), and an encode failure refuses the send, before anything is stored.
 */
public final class Codecs {
    private Codecs() {}

    /** The payload's bytes. */
    public static <T> byte[] encode(Codec<T> codec, T payload) {
        byte[] bytes;
        try {
            bytes = codec.encode(payload);
        } catch (SerializationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SerializationException("could not encode a payload with " + codec + ": " + e, e);
        }
        if (bytes == null) {
            throw new SerializationException(codec + " encoded a payload as null", null);
        }
        return bytes;
    }

    /** The payload of these bytes. */
    public static <T> T decode(Codec<T> codec, byte[] bytes) {
        T payload;
        try {
            payload = codec.decode(bytes);
        } catch (SerializationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SerializationException("could not decode a payload with " + codec + ": " + e, e);
        }
        if (payload == null) {
            throw new SerializationException(codec + " decoded a payload as null", null);
        }
        return payload;
    }
}

package io.queuekit.inmemory;

import io.queuekit.Codec;
import io.queuekit.SerializationException;

/**
 * How payloads are stored: as the objects themselves, or, with a codec, as encoded bytes decoded
 * afresh for every reader, so that codec bugs and shared mutable payloads show up as they would on
 * Redis.
 */
final class Bodies<T> {
    private final Codec<T> codec;
    private final int maxBytes;

    Bodies(Codec<T> codec, int maxBytes) {
        this.codec = codec;
        this.maxBytes = maxBytes;
    }

    /** The form to store; the caller has refused null already. */
    Object store(T payload) {
        if (codec == null) {
            return payload;
        }
        byte[] bytes;
        try {
            bytes = codec.encode(payload);
        } catch (SerializationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SerializationException("could not encode payload with " + codec + ": " + e, e);
        }
        if (bytes == null) {
            throw new SerializationException(codec + " encoded a payload as null", null);
        }
        if (bytes.length > maxBytes) {
            throw new IllegalArgumentException("payload is " + bytes.length
                    + " bytes encoded, more than the limit of " + maxBytes + " bytes");
        }
        return bytes;
    }

    @SuppressWarnings("unchecked")
    T load(Object body) {
        if (codec == null) {
            return (T) body;
        }
        T payload;
        try {
            payload = codec.decode(((byte[]) body).clone());
        } catch (SerializationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SerializationException("could not decode payload with " + codec + ": " + e, e);
        }
        if (payload == null) {
            throw new SerializationException(codec + " decoded a payload as null", null);
        }
        return payload;
    }
}

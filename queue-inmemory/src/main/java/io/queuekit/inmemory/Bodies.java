package io.queuekit.inmemory;

import io.queuekit.Codec;
import io.queuekit.internal.Codecs;

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
        byte[] bytes = Codecs.encode(codec, payload);
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
        return Codecs.decode(codec, ((byte[]) body).clone());
    }
}

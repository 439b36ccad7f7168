package io.queuekit.inmemory;

import io.queuekit.Codec;
import io.queuekit.internal.Codecs;
import io.queuekit.internal.PayloadLimit;

/**
 * How payloads are stored: as the objects themselves, or, with a codec, as encoded bytes decoded
 * afresh for every reader, so that codec bugs and shared mutable payloads show up as they would on
 * Redis.
 */
final class Bodies<T> {
    private final Codec<T> codec;
    private final int maxBytes;
    private final String name;

    Bodies(Codec<T> codec, int maxBytes, String name) {
        this.codec = codec;
        this.maxBytes = maxBytes;
        this.name = name;
    }

    /** The form to store; the caller has refused null already. */
    Object store(T payload) {
        if (codec == null) {
            return payload;
        }
        return PayloadLimit.check(Codecs.encode(codec, payload), maxBytes, name + ": payload");
    }

    @SuppressWarnings("unchecked")
    T load(Object body) {
        if (codec == null) {
            return (T) body;
        }
        return Codecs.decode(codec, ((byte[]) body).clone());
    }
}

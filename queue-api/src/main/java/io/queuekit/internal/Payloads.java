package io.queuekit.internal;

import io.queuekit.Codec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How one queue stores its payloads: encoded by its codec and refused over its size limit, or,
 * without a codec (in memory only), as the objects themselves. Every transport encodes and decodes
 * through here, so the same payload is refused or accepted alike everywhere.
 *
 * @param <T> the payload type
 */
public final class Payloads<T> {
    private final Codec<T> codec;
    private final int maxBytes;
    private final String label;

    /**
     * @param codec null to store the objects themselves
     * @param maxBytes the largest encoded payload accepted
     * @param label names the queue in the refusal ({@code "redis-list orders"})
     */
    public Payloads(Codec<T> codec, int maxBytes, String label) {
        this.codec = codec;
        this.maxBytes = maxBytes;
        this.label = Objects.requireNonNull(label, "label");
    }

    /**
     * Encodes and size-checks every payload before anything is stored; a refusal names the index of
     * the payload in a batch.
     *
     * @throws io.queuekit.SerializationException if the codec fails
     * @throws IllegalArgumentException if one is over the limit
     */
    public List<byte[]> encodeAll(List<? extends T> payloads) {
        List<byte[]> out = new ArrayList<>(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            out.add(encode(payloads.get(i), payloads.size() > 1 ? " at index " + i : ""));
        }
        return out;
    }

    private byte[] encode(T payload, String where) {
        if (codec == null) {
            throw new IllegalStateException(label + " has no codec");
        }
        return PayloadLimit.check(Codecs.encode(codec, payload), maxBytes, label + ": payload" + where);
    }

    /** Decodes a payload; a failure is a {@link io.queuekit.SerializationException}. */
    public T decode(byte[] payload) {
        return Codecs.decode(codec, payload);
    }

    /** The form to keep in memory: the encoded bytes, or without a codec the object itself. */
    public Object store(T payload) {
        return codec == null ? payload : encode(payload, "");
    }

    /** The payload of a body {@link #store} made; decoded afresh for every reader. */
    @SuppressWarnings("unchecked")
    public T load(Object body) {
        return codec == null ? (T) body : Codecs.decode(codec, ((byte[]) body).clone());
    }
}

package io.queuekit.internal;

import io.queuekit.Codec;
import io.queuekit.Headers;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How one queue stores its payloads: encoded by its codec and refused over its size limit, or,
 * without a codec (in memory only), as the objects themselves; with its headers, framed by
 * {@link HeaderFrame}. Every transport encodes and decodes through here, so the same payload is
 * refused or accepted alike everywhere, and headers are kept alike.
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
        return encodeAll(payloads, Headers.empty());
    }

    /** As {@link #encodeAll(List)}, every payload stored with {@code headers}. */
    public List<byte[]> encodeAll(List<? extends T> payloads, Headers headers) {
        Objects.requireNonNull(headers, "headers");
        List<byte[]> out = new ArrayList<>(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            out.add(encode(payloads.get(i), headers, payloads.size() > 1 ? " at index " + i : ""));
        }
        return out;
    }

    /** As {@link #encodeAll(List)}, each payload stored with the headers at its index. */
    public List<byte[]> encodeEach(List<? extends T> payloads, List<Headers> headers) {
        if (payloads.size() != headers.size()) {
            throw new IllegalArgumentException(payloads.size() + " payloads, " + headers.size() + " headers");
        }
        List<byte[]> out = new ArrayList<>(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            out.add(encode(payloads.get(i), headers.get(i), payloads.size() > 1 ? " at index " + i : ""));
        }
        return out;
    }

    private byte[] encode(T payload, Headers headers, String where) {
        if (codec == null) {
            throw new IllegalStateException(label + " has no codec");
        }
        byte[] bytes = PayloadLimit.check(Codecs.encode(codec, payload), maxBytes, label + ": payload" + where);
        return HeaderFrame.frame(headers, bytes);
    }

    /**
     * Decodes the payload of a stored section (what {@link #encodeAll} made); a failure is a
     * {@link io.queuekit.SerializationException}.
     */
    public T decode(byte[] section) {
        return Codecs.decode(codec, HeaderFrame.read(section).payload());
    }

    /** The headers of a stored section; none if it has none or they are malformed. */
    public static Headers headers(byte[] section) {
        return HeaderFrame.headersOrEmpty(section);
    }

    /** The form to keep in memory: the encoded bytes, or without a codec the object itself. */
    public Object store(T payload) {
        return store(payload, Headers.empty());
    }

    /**
     * The form to keep in memory with headers: the encoded section, or without a codec the object
     * itself, paired with its headers if it has any.
     */
    public Object store(T payload, Headers headers) {
        Objects.requireNonNull(headers, "headers");
        if (codec != null) {
            return encode(payload, headers, "");
        }
        return headers.isEmpty() ? payload : new Headed(payload, headers);
    }

    /** The payload of a body {@link #store} made; decoded afresh for every reader. */
    @SuppressWarnings("unchecked")
    public T load(Object body) {
        if (codec == null) {
            return (T) (body instanceof Headed h ? h.payload : body);
        }
        return decode(((byte[]) body).clone());
    }

    /** The headers of a body {@link #store} made. */
    public Headers headersOf(Object body) {
        if (codec == null) {
            return body instanceof Headed h ? h.headers : Headers.empty();
        }
        return headers((byte[]) body);
    }

    /** A payload kept as an object, with its headers. */
    private record Headed(Object payload, Headers headers) {}
}

package io.queuekit.internal;

/**
 * The one payload size rule of every transport: a limit on the <em>encoded</em> bytes of a
 * payload, settable from 1 byte to {@link #MAX_BYTES} (256 MiB), {@link #DEFAULT_BYTES} (1 MiB)
 * unless set. A payload above it is refused with {@link IllegalArgumentException} before anything
 * is stored or published. The ceiling leaves room under Redis's 512 MB string limit for what a
 * transport stores around a payload (its envelope, an id, a dead-letter reason). A transport that
 * keeps payloads as objects, without a codec (in memory), has no bytes to measure and so no limit.
 */
public final class PayloadLimit {
    /** The limit unless set: 1 MiB. */
    public static final int DEFAULT_BYTES = 1 << 20;
    /** The highest limit that can be set: 256 MiB. */
    public static final int MAX_BYTES = 256 << 20;

    private PayloadLimit() {}

    /** Refuses a limit outside 1 byte to {@link #MAX_BYTES}, for a builder's {@code maxPayloadBytes}. */
    public static int maxPayloadBytes(int bytes) {
        if (bytes < 1 || bytes > MAX_BYTES) {
            throw new IllegalArgumentException("maxPayloadBytes must be 1 to " + MAX_BYTES + " (256 MiB): " + bytes);
        }
        return bytes;
    }

    /**
     * Refuses an encoded payload above {@code maxBytes}.
     *
     * @param what names the payload in the message, e.g. {@code "orders: payload at index 3"}
     * @return {@code encoded}
     */
    public static byte[] check(byte[] encoded, int maxBytes, String what) {
        if (encoded.length > maxBytes) {
            throw new IllegalArgumentException(what + " is " + encoded.length + " bytes encoded, above the limit of "
                    + maxBytes + " bytes (maxPayloadBytes)");
        }
        return encoded;
    }
}

package io.queuekit.redis.internal;

import io.queuekit.Headers;
import io.queuekit.internal.HeaderFrame;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A message as the Redis queues store it by id: {@code "<enqueued ms>:<payload>"} (every message
 * of the delay queue; the dead letters of both queues). The payload part is the section
 * {@link io.queuekit.internal.Payloads} made: the encoded payload, framed with its headers if it
 * has any ({@link HeaderFrame}).
 */
public final class StoredBody {
    private StoredBody() {}

    /** The body of a payload enqueued at {@code enqueuedMillis}. */
    public static byte[] of(long enqueuedMillis, byte[] payload, int from) {
        byte[] ms = Long.toString(enqueuedMillis).getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[ms.length + 1 + payload.length - from];
        System.arraycopy(ms, 0, out, 0, ms.length);
        out[ms.length] = ':';
        System.arraycopy(payload, from, out, ms.length + 1, payload.length - from);
        return out;
    }

    /** The digits before the first colon, read as they are (a body this library wrote). */
    public static long enqueuedMillis(byte[] body) {
        long ms = 0;
        for (byte b : body) {
            if (b == ':') {
                return ms;
            }
            ms = ms * 10 + (b - '0');
        }
        return ms;
    }

    /**
     * The enqueue time of a body that begins with one to fifteen digits and a colon; -1 for any
     * other bytes (written by someone else).
     */
    public static long checkedEnqueuedMillis(byte[] body) {
        for (int i = 0; i < body.length && i <= 15; i++) {
            if (body[i] == ':') {
                return i == 0 ? -1 : enqueuedMillis(body);
            }
            if (body[i] < '0' || body[i] > '9') {
                return -1;
            }
        }
        return -1;
    }

    /** The payload: what follows the first colon (the whole body if there is none). */
    public static byte[] payload(byte[] body) {
        for (int i = 0; i < body.length; i++) {
            if (body[i] == ':') {
                return Arrays.copyOfRange(body, i + 1, body.length);
            }
        }
        return body;
    }

    /** The headers of a body's payload: {@link #headers(byte[], int)} of what follows its first colon. */
    public static Headers headers(byte[] body) {
        for (int i = 0; i < body.length; i++) {
            if (body[i] == ':') {
                return headers(body, i + 1);
            }
        }
        return headers(body, 0);
    }

    /**
     * The headers of the section that begins at {@code from} in {@code stored}; none if it has none
     * or they are not well formed. The section is copied only when it is framed, so a message
     * without headers costs a look at its first bytes.
     */
    public static Headers headers(byte[] stored, int from) {
        if (!HeaderFrame.framed(stored, from)) {
            return Headers.empty();
        }
        return HeaderFrame.headersOrEmpty(Arrays.copyOfRange(stored, from, stored.length));
    }
}

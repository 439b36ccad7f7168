package io.queuekit.redis.list;

import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.redis.internal.StoredBody;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A list element {@code "<id> <attempt> <enqueued ms> <payload>"}: everything a delivery needs
 * in one value, so that sending is one LPUSH and taking one BLMOVE or BRPOP, with no body hash
 * ({@code includes/storage.lua} describes the whole layout). {@code attempt} is the attempt number of the
 * element's next delivery. The element is kept as read, since at-least-once settling names it to
 * remove it from the in-flight list.
 */
final class Envelope {
    private static final byte SPACE = ' ';

    final MessageId id;
    final int attempt;
    final long enqueuedMillis;
    private final byte[] element;
    private final int payloadOffset;

    private Envelope(MessageId id, int attempt, long enqueuedMillis, byte[] element, int payloadOffset) {
        this.id = id;
        this.attempt = attempt;
        this.enqueuedMillis = enqueuedMillis;
        this.element = element;
        this.payloadOffset = payloadOffset;
    }

    /** The element as read from Redis (not a copy). */
    byte[] element() {
        return element;
    }

    /** A copy of the payload bytes. */
    byte[] payload() {
        return Arrays.copyOfRange(element, payloadOffset, element.length);
    }

    /** The headers stored in front of the payload; none if it has none or they are malformed. */
    Headers headers() {
        return StoredBody.headers(element, payloadOffset);
    }

    /** The message as the core stores a body: {@code "<enqueued ms>:<payload>"}. */
    byte[] body() {
        return StoredBody.of(enqueuedMillis, element, payloadOffset);
    }

    /** This message as the element of its next attempt. */
    byte[] next() {
        byte[] id = this.id.value().getBytes(StandardCharsets.UTF_8);
        return encode(id, attempt + 1, enqueuedMillis, element, payloadOffset);
    }

    static byte[] encode(byte[] id, int attempt, long enqueuedMillis, byte[] payload) {
        return encode(id, attempt, enqueuedMillis, payload, 0);
    }

    private static byte[] encode(byte[] id, int attempt, long enqueuedMillis, byte[] payload, int from) {
        int payloadLength = payload.length - from;
        byte[] out = new byte[id.length + digits(attempt) + digits(enqueuedMillis) + 3 + payloadLength];
        System.arraycopy(id, 0, out, 0, id.length);
        int p = id.length;
        out[p++] = SPACE;
        p = writeDigits(out, p, attempt);
        out[p++] = SPACE;
        p = writeDigits(out, p, enqueuedMillis);
        out[p++] = SPACE;
        System.arraycopy(payload, from, out, p, payloadLength);
        return out;
    }

    /** The envelope in {@code element}, or null if it is not a well-formed one. */
    static Envelope parse(byte[] element) {
        int s1 = indexOfSpace(element, 0);
        if (s1 <= 0) {
            return null;
        }
        int s2 = indexOfSpace(element, s1 + 1);
        int s3 = s2 < 0 ? -1 : indexOfSpace(element, s2 + 1);
        long attempt = s3 < 0 ? -1 : number(element, s1 + 1, s2);
        long enqueued = attempt < 1 || attempt > Integer.MAX_VALUE ? -1 : number(element, s2 + 1, s3);
        if (enqueued < 0) {
            return null;
        }
        MessageId id;
        try {
            id = MessageId.of(new String(element, 0, s1, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return null;
        }
        return new Envelope(id, (int) attempt, enqueued, element, s3 + 1);
    }

    private static int indexOfSpace(byte[] b, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == SPACE) {
                return i;
            }
        }
        return -1;
    }

    /** The decimal number in {@code b[from, to)}, or -1 if it is not one (or has over 18 digits). */
    private static long number(byte[] b, int from, int to) {
        if (to <= from || to - from > 18) {
            return -1;
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            n = n * 10 + d;
        }
        return n;
    }

    private static int digits(long n) {
        int d = 1;
        while (n >= 10) {
            n /= 10;
            d++;
        }
        return d;
    }

    private static int writeDigits(byte[] out, int p, long n) {
        int end = p + digits(n);
        for (int i = end - 1; i >= p; i--) {
            out[i] = (byte) ('0' + n % 10);
            n /= 10;
        }
        return end;
    }
}

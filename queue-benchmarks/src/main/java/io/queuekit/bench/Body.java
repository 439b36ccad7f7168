package io.queuekit.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Message bodies of 100 bytes that carry their index ({@code <index>:xxx...}). They are built
 * before a measured run starts, so the producer's time goes into the transport, not into building
 * strings; the time each message was sent or is due is kept by the {@link Tracker}.
 */
final class Body {
    static final int SIZE = 100;
    private static final String PAD = "x".repeat(SIZE);

    private Body() {}

    /** Wall-clock microseconds since the epoch, the clock Redis reads for {@code TIME}. */
    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    static String of(int index) {
        String head = index + ":";
        return head + PAD.substring(0, Math.max(0, SIZE - head.length()));
    }

    /** Bodies 0 to n-1. */
    static List<String> all(int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(of(i));
        }
        return out;
    }

    static int index(String body) {
        int colon = body.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException(
                    "not a benchmark body: " + (body.length() <= 40 ? body : body.substring(0, 40) + "..."));
        }
        return Integer.parseInt(body, 0, colon, 10);
    }
}

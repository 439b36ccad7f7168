package io.queuekit.redis.internal;

import io.queuekit.internal.Checks;
import java.time.Duration;

/**
 * The bounds of the Redis broadcaster's buffer and keep-alive settings, as its builder checks
 * them, for callers that check a setting without building a broadcaster.
 */
public final class RedisBroadcastSettings {
    private RedisBroadcastSettings() {}

    /** Messages a subscription buffers: 1 to 16,777,216. */
    public static int checkBufferCapacity(int bufferCapacity) {
        return Checks.inRange(bufferCapacity, 1, 1 << 24, "bufferCapacity");
    }

    /** Bytes a subscription buffers: 1 to 1 GiB. */
    public static int checkBufferBytes(int bufferBytes) {
        return Checks.inRange(bufferBytes, 1, 1 << 30, "bufferBytes");
    }

    /** Quiet time before a keep-alive: 1 ms to 1 day. */
    public static Duration checkKeepAliveInterval(Duration keepAliveInterval) {
        return Checks.between(keepAliveInterval, Duration.ofMillis(1), Duration.ofDays(1), "keepAliveInterval");
    }
}

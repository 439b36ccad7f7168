package io.queuekit.spring.boot;

import java.time.Duration;

/**
 * The retention of a stream queue ({@code queuekit.queues.<name>.stream.*}), as the Redis stream
 * topic's builder sets it.
 */
public class StreamProperties {
    /**
     * Messages the stream keeps beyond which those every group has acked are removed, the
     * oldest first; unset, no limit by length.
     */
    private Long maxLength;

    /** How long the stream keeps a message that every group has acked; unset, no limit by age. */
    private Duration maxAge;

    /**
     * Messages the stream never holds more of, acked or not: a group that had not acked one it
     * removed counts it as missed; unset, no hard limit.
     */
    private Long hardMaxLength;

    public Long getMaxLength() {
        return maxLength;
    }

    public void setMaxLength(Long maxLength) {
        this.maxLength = maxLength;
    }

    public Duration getMaxAge() {
        return maxAge;
    }

    public void setMaxAge(Duration maxAge) {
        this.maxAge = maxAge;
    }

    public Long getHardMaxLength() {
        return hardMaxLength;
    }

    public void setHardMaxLength(Long hardMaxLength) {
        this.hardMaxLength = hardMaxLength;
    }

    boolean isSet() {
        return maxLength != null || maxAge != null || hardMaxLength != null;
    }
}

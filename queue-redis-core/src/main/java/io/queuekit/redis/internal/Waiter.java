package io.queuekit.redis.internal;

/**
 * How a transport blocks until something may be claimable: the zset queue on a wake-up signal.
 * Implementations block in Redis, never spin.
 */
@FunctionalInterface
public interface Waiter {
    /**
     * Blocks in Redis until woken, for about {@code millis} (at least 1): the time until the next
     * delayed message or lease falls due, or until the caller's deadline. A transport may block
     * longer, up to {@code patienceMillis} (the caller's deadline capped by the block timeout),
     * when it knows another consumer of the same queue watches that due time and will wake it.
     *
     * @return true if a wake-up arrived (something may be claimable), false if the time ran out
     */
    boolean await(long millis, long patienceMillis);
}

package io.queuekit.redis;

/**
 * How a transport blocks until something may be claimable: the list queue blocks on its ready
 * list, the zset queue on a wake-up signal. Implementations block in Redis, never spin.
 */
@FunctionalInterface
public interface Waiter {
    /**
     * Blocks up to {@code millis} (at least 1) in Redis.
     *
     * @return the id of a message this call already took out of the ready messages (the list
     *     queue's BLMOVE), to be claimed next; or null
     */
    String await(long millis);
}

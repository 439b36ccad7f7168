package io.queuekit.redis.internal;

import java.nio.charset.StandardCharsets;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;

/**
 * Where a Redis queue (or one shard of it) stores its pause: {@code <prefix>:{<tag>}:paused}, a
 * string that exists while the queue is paused, beside the queue's other keys so that a claim
 * script can read it with them. Written by {@code pause()} and {@code resume()}; read by a take
 * that is a plain command (a list's {@code LMOVE}, {@code BLMOVE} or {@code BRPOP}), with it in one
 * round trip where the client can ({@link #command()}), and by a paused object's check
 * ({@link io.queuekit.internal.Pausing}). See {@code docs/pausing.md}.
 */
public final class PauseKey {
    private static final byte[] PAUSED = "1".getBytes(StandardCharsets.US_ASCII);

    private final RedisContext<?> queue;
    private final UnifiedJedis jedis;
    private final byte[] key;

    public PauseKey(RedisContext<?> queue) {
        this.queue = queue;
        this.jedis = queue.client();
        this.key = queue.settings().keys().keyBytes("paused");
    }

    /** Stores the pause, or removes it, waiting for replicas where the queue's writes do. */
    public void store(boolean paused) {
        String what = queue.label() + (paused ? ": pause" : ": resume");
        queue.checkShardCount(paused ? "pause" : "resume"); // it may be this object's first command
        Replicas replicas = queue.settings().replicas();
        if (paused) {
            RedisCalls.call(
                    what,
                    () -> replicas.waited()
                            ? replicas.write(jedis, key, p -> p.set(key, PAUSED))
                            : jedis.set(key, PAUSED));
        } else {
            RedisCalls.call(
                    what, () -> replicas.waited() ? replicas.write(jedis, key, p -> p.del(key)) : jedis.del(key));
        }
    }

    /** Whether the queue (this shard) is paused, as stored now: one round trip. */
    public boolean read() {
        queue.checkShardCount("read the pause");
        return RedisCalls.call(queue.label() + ": read the pause", () -> jedis.exists(key));
    }

    /** The read as a command, to send after a take in the same round trip; see {@link #paused}. */
    public CommandArguments command() {
        return new CommandArguments(Protocol.Command.EXISTS).key(key);
    }

    /** Whether {@link #command()}'s reply, as Jedis reads it, says paused; an error reply is thrown. */
    public static boolean paused(Object reply, String what) {
        return ((Long) PendingAck.checked(reply, what)) == 1L;
    }
}

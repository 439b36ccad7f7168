package io.queuekit.redis.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import redis.clients.jedis.CommandArguments;

/**
 * One Lua script of one queue, bound to the keys it declares: what a typed script wrapper holds.
 * The wrapper names the keys it passes; they must be those the script declares, in order, which
 * is checked when the queue is built. Runs with the queue's errors translated in one place
 * ({@link RedisCalls}).
 */
public final class QueueScript {
    private final RedisContext<?> queue;
    private final String what;
    private final LuaScript lua;
    private final List<byte[]> keys;
    private final Replicas replicas;

    QueueScript(RedisContext<?> queue, String what, LuaScript lua, String... parts) {
        this(queue, what, lua, Replicas.NONE, parts);
    }

    private QueueScript(RedisContext<?> queue, String what, LuaScript lua, Replicas replicas, String... parts) {
        if (!lua.keys().equals(List.of(parts))) {
            throw new IllegalStateException(
                    lua.name() + " declares the keys " + lua.keys() + ", but is passed " + Arrays.toString(parts));
        }
        this.queue = queue;
        this.what = what;
        this.lua = lua;
        List<byte[]> k = new ArrayList<>(parts.length);
        for (String p : parts) {
            k.add(queue.settings().keys().keyBytes(p));
        }
        this.keys = List.copyOf(k);
        this.replicas = replicas;
    }

    /**
     * This script as a write that decides whether a message is kept or done (a send, an ack): it
     * then returns only once the replicas the queue asks for hold it
     * ({@code RedisQueueBuilder.replicas}).
     */
    public QueueScript replicated() {
        return new QueueScript(
                queue, what, lua, queue.settings().replicas(), lua.keys().toArray(String[]::new));
    }

    /**
     * Runs the script; refused once the queue is closed, and until the queue's number of shards is
     * checked ({@link RedisContext#checkShardCount(String)}). The reply is as Jedis returns it.
     */
    public Object run(List<byte[]> args) {
        queue.runtime().checkOpen();
        queue.checkShardCount(what);
        return runEvenIfClosed(args);
    }

    /** Runs the script; refused once the queue is closed. */
    public Object run(byte[]... args) {
        return run(List.of(args));
    }

    /** Runs the script even on a closed queue: to give back what a closing receiver took. */
    public Object runEvenIfClosed(List<byte[]> args) {
        return RedisCalls.call(queue.label() + ": " + what, () -> lua.eval(queue.client(), replicas, keys, args));
    }

    /**
     * The script's call, to send with other commands in {@link OneRoundTrip}; refused as
     * {@link #run} is. Pass the reply, with the same {@code args}, to {@link #reply}.
     */
    public CommandArguments command(List<byte[]> args) {
        queue.runtime().checkOpen();
        queue.checkShardCount(what);
        return lua.evalsha(keys, args);
    }

    /** The reply of {@link #command}'s call as {@link #run} returns it, errors translated alike. */
    public Object reply(Object raw, List<byte[]> args) {
        return RedisCalls.call(queue.label() + ": " + what, () -> lua.reply(raw, queue.client(), keys, args));
    }

    @Override
    public String toString() {
        return "QueueScript[" + lua.name() + "]";
    }

    // ---- arguments and replies

    public static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] num(long n) {
        return Long.toString(n).getBytes(StandardCharsets.US_ASCII);
    }

    /** A bulk or integer reply as text. */
    public static String str(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    /** An integer reply, or a bulk reply holding a decimal number. */
    public static long integer(Object reply) {
        return reply instanceof Long n ? n : Long.parseLong(str(reply));
    }

    /** An array reply. */
    public static List<?> array(Object reply) {
        return (List<?>) reply;
    }

    /** An array reply of bulk strings. */
    public static List<byte[]> bulks(Object reply) {
        List<?> r = array(reply);
        List<byte[]> out = new ArrayList<>(r.size());
        for (Object e : r) {
            out.add((byte[]) e);
        }
        return out;
    }
}

package io.queuekit.redis.internal;

import io.queuekit.QueueException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script read from class-path resources and run by its SHA1 ({@code EVALSHA}); when the
 * server does not know it (after a restart, a failover, or on another cluster node) it is sent
 * once in full with {@code EVAL}, which also caches it. A script may be composed of several files
 * (shared functions first, then the operation), concatenated in order.
 */
public final class LuaScript {
    private final String name;
    private final byte[] source;
    private final byte[] sha;

    private LuaScript(String name, byte[] source) {
        this.name = name;
        this.source = source;
        this.sha = sha1Hex(source).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Loads and concatenates resources, each an absolute class-path resource name such as
     * {@code /io/queuekit/redis/lua/common.lua}, read with {@code anchor}'s class loader.
     *
     * @throws QueueException if a resource is missing
     */
    public static LuaScript load(Class<?> anchor, String... resources) {
        StringBuilder sb = new StringBuilder();
        for (String r : resources) {
            try (InputStream in = anchor.getResourceAsStream(r)) {
                if (in == null) {
                    throw new QueueException("Lua script resource not found: " + r);
                }
                sb.append(new String(in.readAllBytes(), StandardCharsets.UTF_8)).append('\n');
            } catch (IOException e) {
                throw new QueueException("cannot read Lua script resource " + r, e);
            }
        }
        String last = resources[resources.length - 1];
        return new LuaScript(last.substring(last.lastIndexOf('/') + 1), sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Runs the script; the reply is as Jedis returns it (Long, byte[], List, or null). */
    public Object eval(UnifiedJedis jedis, List<byte[]> keys, List<byte[]> args) {
        try {
            return jedis.evalsha(sha, keys, args);
        } catch (JedisNoScriptException e) {
            return jedis.eval(source, keys, args);
        }
    }

    /** The file name of the operation, for messages. */
    public String name() {
        return name;
    }

    private static String sha1Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
    }

    @Override
    public String toString() {
        return "LuaScript[" + name + "]";
    }
}

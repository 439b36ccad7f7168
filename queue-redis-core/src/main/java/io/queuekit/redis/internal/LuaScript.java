package io.queuekit.redis.internal;

import io.queuekit.QueueException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script read from class-path resources and run by its SHA1 ({@code EVALSHA}); when the
 * server does not know it (after a restart, a failover, or on another cluster node) it is sent
 * once in full with {@code EVAL}, which also caches it.
 *
 * <p>An operation file begins with the keys it takes, declared as {@code K_*} locals on its first
 * lines of code ({@code local K_DEAD, K_BODY = KEYS[1], KEYS[2]}; part {@code dead} is
 * {@code K_DEAD}). It may be composed with shared files ({@code common.lua}, a storage file):
 * the operation's header and declarations come first, so that the shared functions see those
 * locals, then the shared files, then the rest of the operation. A shared function that uses a
 * key the operation did not declare fails if called (Redis refuses to read an undeclared global).
 */
public final class LuaScript {
    private static final Pattern DECLARATION = Pattern.compile(
            "local\\s+(K_\\w+(?:\\s*,\\s*K_\\w+)*)\\s*=\\s*(KEYS\\[\\d+\\](?:\\s*,\\s*KEYS\\[\\d+\\])*)");
    private static final Pattern INDEX = Pattern.compile("KEYS\\[(\\d+)\\]");

    private final String name;
    private final byte[] source;
    private final byte[] sha;
    private final List<String> keys;

    private LuaScript(String name, byte[] source, List<String> keys) {
        this.name = name;
        this.source = source;
        this.sha = sha1Hex(source).getBytes(StandardCharsets.US_ASCII);
        this.keys = keys;
    }

    /**
     * The operation {@code operation} composed with {@code shared} files, in order; each an
     * absolute class-path resource name such as {@code /io/queuekit/redis/lua/common.lua}, read
     * with {@code anchor}'s class loader.
     *
     * @throws QueueException if a resource is missing, or the operation declares no keys, or
     *     declares them out of KEYS order
     */
    public static LuaScript compose(Class<?> anchor, List<String> shared, String operation) {
        String op = read(anchor, operation);
        String[] lines = op.split("\n", -1);
        int code = 0;
        while (code < lines.length && (lines[code].isBlank() || lines[code].trim().startsWith("--"))) {
            code++;
        }
        List<String> keys = new ArrayList<>();
        int end = code;
        for (Matcher m; end < lines.length && (m = DECLARATION.matcher(lines[end].trim())).matches(); end++) {
            String[] names = m.group(1).split("\\s*,\\s*");
            Matcher index = INDEX.matcher(m.group(2));
            for (String n : names) {
                if (!index.find() || Integer.parseInt(index.group(1)) != keys.size() + 1) {
                    throw new QueueException(operation + ": declare K_* locals as KEYS[1], KEYS[2], ... in order");
                }
                keys.add(n.substring(2).toLowerCase(Locale.ROOT));
            }
            if (index.find()) {
                throw new QueueException(operation + ": more KEYS than K_* locals in: " + lines[end].trim());
            }
        }
        if (keys.isEmpty()) {
            throw new QueueException(operation + ": its first line of code must declare its keys (local K_X = KEYS[1])");
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.join("\n", List.of(lines).subList(0, end))).append('\n');
        for (String r : shared) {
            sb.append(read(anchor, r)).append('\n');
        }
        sb.append(String.join("\n", List.of(lines).subList(end, lines.length))).append('\n');
        return new LuaScript(operation.substring(operation.lastIndexOf('/') + 1),
                sb.toString().getBytes(StandardCharsets.UTF_8), List.copyOf(keys));
    }

    private static String read(Class<?> anchor, String resource) {
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            if (in == null) {
                throw new QueueException("Lua script resource not found: " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new QueueException("cannot read Lua script resource " + resource, e);
        }
    }

    /** The composed source, for tests. */
    String source() {
        return new String(source, StandardCharsets.UTF_8);
    }

    /** The key parts the operation declares, in KEYS order: {@code K_DEAD} is {@code dead}. */
    public List<String> keys() {
        return keys;
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

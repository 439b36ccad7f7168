package io.queuekit.redis.internal;

import io.queuekit.QueueException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script read from class-path resources and run by its SHA1 ({@code EVALSHA}); when the
 * server does not know it (after a restart, a failover, or on another cluster node) it is sent
 * once in full with {@code EVAL}, which also caches it.
 *
 * <p>An operation file declares the keys it takes as {@code K_*} locals on its first lines of code
 * ({@code local K_DEAD, K_BODY = KEYS[1], KEYS[2]}; part {@code dead} is {@code K_DEAD}) and names
 * what it uses with include lines, {@code --- @include "name"}, as include files do: the composed
 * script is the operation's header, each file included (directly or not) once and after the files
 * it includes, then the rest of the operation, with each {@code K_*} read as its {@code KEYS}
 * element. {@code docs/redis-scripts.md} says how scripts are written. The easy thing to get
 * wrong: every call of a script runs its top level, so each function an include defines costs
 * Redis time on every call, called or not; include only what is used.
 */
public final class LuaScript {
    private static final Pattern DECLARATION = Pattern.compile(
            "local\\s+(K_\\w+(?:\\s*,\\s*K_\\w+)*)\\s*=\\s*(KEYS\\[\\d+\\](?:\\s*,\\s*KEYS\\[\\d+\\])*)");
    private static final Pattern INDEX = Pattern.compile("KEYS\\[(\\d+)\\]");
    private static final String INCLUDE_MARK = "--- @include";
    private static final Pattern INCLUDE = Pattern.compile("--- @include \"([A-Za-z_]\\w*)\"\\s*");

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
     * The operation {@code operation} with what it includes, each include {@code name.lua} taken
     * from the first of the {@code includes} folders that has it (a transport's before the core's,
     * so that a script both queues run gets each storage's definitions). Folders and operation are
     * absolute class-path names ({@code /io/queuekit/redis/lua/includes/},
     * {@code /io/queuekit/redis/lua/dead_move.lua}), read with {@code anchor}'s class loader.
     *
     * @throws QueueException if a resource is missing, an include is in none of the folders, includes
     *     form a cycle, an include line is malformed, or the operation declares no keys, or declares
     *     them out of KEYS order
     */
    public static LuaScript compose(Class<?> anchor, List<String> includes, String operation) {
        Inclusion inclusion = new Inclusion(anchor, includes, operation);
        List<String> lines = inclusion.read(operation);
        int code = 0;
        while (code < lines.size()
                && (lines.get(code).isBlank() || lines.get(code).trim().startsWith("--"))) {
            code++;
        }
        List<String> keys = new ArrayList<>();
        int end = code;
        for (; end < lines.size(); end++) {
            Matcher m = DECLARATION.matcher(lines.get(end).trim());
            if (!m.matches()) {
                break;
            }
            String[] names = m.group(1).split("\\s*,\\s*", -1);
            Matcher index = INDEX.matcher(m.group(2));
            for (String n : names) {
                if (!index.find() || Integer.parseInt(index.group(1)) != keys.size() + 1) {
                    throw new QueueException(operation + ": declare K_* locals as KEYS[1], KEYS[2], ... in order");
                }
                keys.add(n.substring(2).toLowerCase(Locale.ROOT));
            }
            if (index.find()) {
                throw new QueueException(operation + ": more KEYS than K_* locals in: "
                        + lines.get(end).trim());
            }
        }
        if (keys.isEmpty()) {
            throw new QueueException(
                    operation + ": its first line of code must declare its keys (local K_X = KEYS[1])");
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.join("\n", lines.subList(0, code))).append('\n');
        StringBuilder declared = new StringBuilder("-- KEYS:");
        Map<String, String> byName = new HashMap<>();
        for (int k = 0; k < keys.size(); k++) {
            declared.append(k == 0 ? " " : ", ").append(k + 1).append(' ').append(keys.get(k));
            byName.put("K_" + keys.get(k).toUpperCase(Locale.ROOT), "KEYS[" + (k + 1) + "]");
        }
        sb.append(declared).append('\n');
        String body = inclusion.code() + String.join("\n", lines.subList(end, lines.size())) + '\n';
        sb.append(keysInPlace(body, byName));
        return new LuaScript(
                operation.substring(operation.lastIndexOf('/') + 1),
                sb.toString().getBytes(StandardCharsets.UTF_8),
                List.copyOf(keys));
    }

    /**
     * {@code code} with each declared key's local ({@code K_BODY}) replaced by its {@code KEYS}
     * element ({@code KEYS[2]}), outside strings and comments. A shared function that reads a key
     * as a local captures it when the script's top level defines the function, on every call, and
     * each capture costs the server time: of a claim finding nothing, about 0.5 us of 9 on Redis
     * 7.0. A key the operation did not declare stays as written, an undeclared global that Redis
     * refuses to read.
     */
    private static String keysInPlace(String code, Map<String, String> keys) {
        StringBuilder out = new StringBuilder(code.length());
        int i = 0;
        int n = code.length();
        while (i < n) {
            char c = code.charAt(i);
            int j;
            if (c == '-' && code.startsWith("--", i)) {
                int eol = code.indexOf('\n', i);
                j = eol < 0 ? n : eol;
            } else if (c == '\'' || c == '"') {
                j = i + 1;
                while (j < n && code.charAt(j) != c) {
                    j += code.charAt(j) == '\\' ? 2 : 1;
                }
                j = Math.min(j + 1, n);
            } else if (Character.isLetter(c) || c == '_') {
                j = i + 1;
                while (j < n && (Character.isLetterOrDigit(code.charAt(j)) || code.charAt(j) == '_')) {
                    j++;
                }
                String name = code.substring(i, j);
                out.append(keys.getOrDefault(name, name));
                i = j;
                continue;
            } else {
                j = i + 1;
            }
            out.append(code, i, j);
            i = j;
        }
        return out.toString();
    }

    /**
     * The files one operation includes, directly or through each other: each read once, and its
     * code (without comments) placed after that of the files it includes.
     */
    private static final class Inclusion {
        private final Class<?> anchor;
        private final List<String> folders;
        private final String operation;
        private final Set<String> done = new HashSet<>();
        /** The includes being resolved, each included by the one before it. */
        private final LinkedHashSet<String> open = new LinkedHashSet<>();

        private final StringBuilder code = new StringBuilder();

        Inclusion(Class<?> anchor, List<String> folders, String operation) {
            this.anchor = anchor;
            this.folders = List.copyOf(folders);
            this.operation = operation;
        }

        /** The lines of {@code file} but its include lines, after including what those name. */
        List<String> read(String file) {
            List<String> lines = new ArrayList<>();
            for (String line : LuaScript.read(anchor, file).split("\n", -1)) {
                if (line.startsWith(INCLUDE_MARK)) {
                    Matcher m = INCLUDE.matcher(line);
                    if (!m.matches()) {
                        throw new QueueException(operation + ": " + file + " has an include line that is not "
                                + INCLUDE_MARK + " \"name\": " + line);
                    }
                    include(m.group(1), file);
                } else {
                    lines.add(line);
                }
            }
            return lines;
        }

        private void include(String name, String by) {
            if (done.contains(name)) {
                return;
            }
            if (!open.add(name)) {
                List<String> chain = new ArrayList<>(open);
                chain = new ArrayList<>(chain.subList(chain.indexOf(name), chain.size()));
                chain.add(name);
                throw new QueueException(operation + ": includes form a cycle: " + String.join(" -> ", chain));
            }
            for (String line : read(find(name, by))) {
                if (!line.isBlank() && !line.trim().startsWith("--")) {
                    code.append(line).append('\n');
                }
            }
            open.remove(name);
            done.add(name);
        }

        private String find(String name, String by) {
            for (String folder : folders) {
                String file = folder + name + ".lua";
                if (anchor.getResource(file) != null) {
                    return file;
                }
            }
            throw new QueueException(operation + ": include \"" + name + "\" of " + by + " is in none of " + folders);
        }

        String code() {
            return code.toString();
        }
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

    /** The composed source, as sent to Redis. */
    public String source() {
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

    /**
     * Runs the script as {@link #eval} does, and returns once {@code replicas} hold what it wrote
     * (see {@link Replicas#write}); on a cluster, runs it again while its slot moves
     * ({@link SlotMoves}).
     */
    public Object eval(UnifiedJedis jedis, Replicas replicas, List<byte[]> keys, List<byte[]> args) {
        if (!replicas.waited()) {
            return SlotMoves.retry(jedis, () -> eval(jedis, keys, args));
        }
        try {
            return replicas.write(jedis, keys.get(0), p -> p.evalsha(sha, keys, args));
        } catch (JedisNoScriptException e) {
            return replicas.write(jedis, keys.get(0), p -> p.eval(source, keys, args));
        }
    }

    /** The call {@link #eval} makes first ({@code EVALSHA}), to send with other commands. */
    CommandArguments evalsha(List<byte[]> keys, List<byte[]> args) {
        CommandArguments c =
                new CommandArguments(Protocol.Command.EVALSHA).add(sha).add(keys.size());
        keys.forEach(c::key);
        args.forEach(c::add);
        return c;
    }

    /**
     * The reply of {@link #evalsha}'s call as {@link #eval} returns it: if the server did not know
     * the script (restarted, flushed), it runs now with its source; a Redis error is thrown.
     */
    Object reply(Object raw, UnifiedJedis jedis, List<byte[]> keys, List<byte[]> args) {
        if (raw instanceof JedisNoScriptException) {
            return jedis.eval(source, keys, args);
        }
        if (raw instanceof JedisDataException e) {
            throw e;
        }
        return raw;
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

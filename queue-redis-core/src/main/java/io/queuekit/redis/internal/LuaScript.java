package io.queuekit.redis.internal;

import io.queuekit.QueueException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
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
 * <p>An operation file begins with the keys it takes, declared as {@code K_*} locals on its first
 * lines of code ({@code local K_DEAD, K_BODY = KEYS[1], KEYS[2]}; part {@code dead} is
 * {@code K_DEAD}). It may be composed with shared files ({@code common.lua}, a storage file):
 * the operation's header comes first, then the shared files, then the rest of the operation, and
 * throughout, each declared key's local reads as its {@code KEYS} element ({@code K_BODY} as
 * {@code KEYS[2]}), which the shared functions then see without capturing a local. A shared
 * function that uses a key the operation did not declare fails if called (Redis refuses to read
 * an undeclared global).
 *
 * <p>Of the shared files, only the top-level statements the operation needs (directly or through
 * each other) are composed in, in their order: every call of a script runs its top level, so each
 * function defined there costs Redis time on every call, whether it is called or not. A shared
 * file is therefore a list of top-level definitions: functions ending with an {@code end} in
 * column 0, and one-line locals and assignments (continued on indented lines).
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
        String rest = String.join("\n", List.of(lines).subList(end, lines.length));
        List<Statement> definitions = new ArrayList<>();
        for (String r : shared) {
            definitions.addAll(Statement.split(read(anchor, r)));
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.join("\n", List.of(lines).subList(0, code))).append('\n');
        StringBuilder declared = new StringBuilder("-- KEYS:");
        Map<String, String> byName = new HashMap<>();
        for (int k = 0; k < keys.size(); k++) {
            declared.append(k == 0 ? " " : ", ").append(k + 1).append(' ').append(keys.get(k));
            byName.put("K_" + keys.get(k).toUpperCase(Locale.ROOT), "KEYS[" + (k + 1) + "]");
        }
        sb.append(declared).append('\n');
        StringBuilder body = new StringBuilder();
        for (Statement d : Statement.needed(definitions, rest)) {
            body.append(d.text()).append('\n');
        }
        body.append(rest).append('\n');
        sb.append(keysInPlace(body.toString(), byName));
        return new LuaScript(operation.substring(operation.lastIndexOf('/') + 1),
                sb.toString().getBytes(StandardCharsets.UTF_8), List.copyOf(keys));
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
        return identifiers(code, name -> keys.getOrDefault(name, name));
    }

    /**
     * {@code code} with each identifier outside strings and comments replaced by what {@code each}
     * returns for it (the identifier itself keeps it).
     */
    private static String identifiers(String code, UnaryOperator<String> each) {
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
                out.append(each.apply(code.substring(i, j)));
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
     * One top-level statement of a shared file: a function (from its first line to the {@code end}
     * in column 0), or a line with its indented continuation; and the names it defines, empty if
     * it defines none that can be read (such a statement is always kept). Comments are left out.
     */
    private record Statement(Set<String> defines, String text) {
        private static final Pattern FUNCTION = Pattern.compile("^(?:local\\s+function\\s+(\\w+)|(\\w+)\\s*=\\s*function\\b)");
        private static final Pattern LOCALS = Pattern.compile("^local\\s+(\\w+(?:\\s*,\\s*\\w+)*)");
        private static final Pattern ASSIGNMENT = Pattern.compile("^(\\w+)\\s*=");

        static List<Statement> split(String file) {
            String[] lines = file.split("\n", -1);
            List<Statement> out = new ArrayList<>();
            int i = 0;
            while (i < lines.length) {
                String first = lines[i];
                if (first.isBlank() || first.startsWith("--")) {
                    i++;
                    continue;
                }
                int start = i;
                Matcher f = FUNCTION.matcher(first);
                if (f.find()) {
                    while (i < lines.length && !lines[i].equals("end")) {
                        i++;
                    }
                    i++;
                } else {
                    i++;
                    while (i < lines.length && !lines[i].isEmpty() && Character.isWhitespace(lines[i].charAt(0))) {
                        i++;
                    }
                }
                Set<String> names = new HashSet<>();
                Matcher m;
                if (f.find(0)) {
                    names.add(f.group(1) != null ? f.group(1) : f.group(2));
                } else if ((m = LOCALS.matcher(first)).find()) {
                    names.addAll(List.of(m.group(1).split("\\s*,\\s*")));
                } else if ((m = ASSIGNMENT.matcher(first)).find()) {
                    names.add(m.group(1));
                }
                out.add(new Statement(names, String.join("\n", List.of(lines).subList(start, Math.min(i, lines.length)))));
            }
            return out;
        }

        /**
         * The statements {@code code} needs, directly or through other statements, in their order:
         * the functions an operation does not call are not defined on each of its calls.
         */
        static List<Statement> needed(List<Statement> all, String code) {
            Set<String> wanted = names(code);
            boolean[] keep = new boolean[all.size()];
            boolean grew = true;
            while (grew) {
                grew = false;
                for (int k = 0; k < all.size(); k++) {
                    Statement s = all.get(k);
                    if (!keep[k] && (s.defines.isEmpty() || !Collections.disjoint(s.defines, wanted))) {
                        keep[k] = true;
                        wanted.addAll(names(s.text));
                        grew = true;
                    }
                }
            }
            List<Statement> out = new ArrayList<>();
            for (int k = 0; k < all.size(); k++) {
                if (keep[k]) {
                    out.add(all.get(k));
                }
            }
            return out;
        }

        /** The identifiers in Lua code, outside its strings and comments. */
        static Set<String> names(String code) {
            Set<String> out = new HashSet<>();
            identifiers(code, name -> {
                out.add(name);
                return name;
            });
            return out;
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
        CommandArguments c = new CommandArguments(Protocol.Command.EVALSHA).add(sha).add(keys.size());
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

package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.redis.internal.LuaScript;
import io.queuekit.redis.internal.RedisContext;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A static check of every Lua script the transports ship (found on the class path, in jars or
 * folders), include files too: no script builds a key name or code from its input. Keys reach
 * Redis only through KEYS, which Redis Cluster and ACLs check before the script runs:
 * <ul>
 *   <li>KEYS is read only where the {@code K_*} locals are declared (the first lines of each
 *       operation file), and those locals are never assigned again;</li>
 *   <li>every {@code redis.call}/{@code redis.pcall} names its command with a string literal, and
 *       passes a {@code K_*} local (or {@code KEYS[n]}) at each key position of that command;</li>
 *   <li>each operation as the queues compose it, with what it includes, passes a {@code KEYS}
 *       element it declares at each key position, and reads no {@code K_*} it does not declare;
 *       and every include file is included by some script;</li>
 *   <li>no script compiles or loads code ({@code loadstring}, {@code load}, {@code dofile},
 *       {@code require}, {@code _G}, {@code setfenv}, {@code debug}, {@code string.dump}).</li>
 * </ul>
 * Beside keys, it checks that only {@code now_ms} reads the server's clock. It is a simple check,
 * not a Lua parser: a command it does not know fails the test until its key positions are added
 * to {@link #KEY_POSITIONS}.
 */
class LuaKeyDisciplineTest {
    /** The folder of the scripts both queues run. */
    private static final String CORE = "io/queuekit/redis/lua/";
    /** Argument positions (1 = the first argument after the command name) that are keys. */
    private static final Map<String, List<Integer>> KEY_POSITIONS = new TreeMap<>();

    static {
        KEY_POSITIONS.put("TIME", List.of());
        KEY_POSITIONS.put("TYPE", List.of(1));
        for (String c : List.of(
                "GET",
                "SET",
                "DEL",
                "EXISTS",
                "INCR",
                "INCRBY",
                "GETDEL",
                "PEXPIRE",
                "EXPIRE",
                "HSET",
                "HGET",
                "HDEL",
                "HEXISTS",
                "HINCRBY",
                "HLEN",
                "HMGET",
                "HKEYS",
                "HGETALL",
                "LPUSH",
                "RPUSH",
                "LPOP",
                "RPOP",
                "LREM",
                "LRANGE",
                "LLEN",
                "LTRIM",
                "LINDEX",
                "LSET",
                "LPOS",
                "ZADD",
                "ZREM",
                "ZRANGE",
                "ZRANGEBYSCORE",
                "ZREVRANGEBYSCORE",
                "ZCARD",
                "ZCOUNT",
                "ZSCORE",
                "ZRANK",
                "ZPOPMIN",
                "ZREMRANGEBYSCORE",
                "ZREMRANGEBYRANK",
                "ZMSCORE",
                "SADD",
                "SREM",
                "SISMEMBER",
                "SCARD",
                "UNLINK",
                "XADD",
                "XLEN",
                "XRANGE",
                "XREVRANGE",
                "XTRIM",
                "XACK",
                "XCLAIM",
                "XPENDING")) {
            KEY_POSITIONS.put(c, List.of(1));
        }
        // a subcommand, then the key: XGROUP CREATE|SETID|DESTROY key ..., XINFO GROUPS|STREAM key
        KEY_POSITIONS.put("XGROUP", List.of(2));
        KEY_POSITIONS.put("XINFO", List.of(2));
        // as the stream topic's scripts call it: XREADGROUP GROUP g consumer COUNT n STREAMS key id
        KEY_POSITIONS.put("XREADGROUP", List.of(7));
        for (String c : List.of("LMOVE", "RPOPLPUSH", "ZRANGESTORE", "RENAME")) {
            KEY_POSITIONS.put(c, List.of(1, 2));
        }
    }

    private static final Pattern FORBIDDEN = Pattern.compile(
            "\\b(loadstring|load|dofile|loadfile|require|setfenv|getfenv|rawset|rawget)\\s*\\(|\\b_G\\b|\\bdebug\\.|string\\.dump");
    private static final Pattern KEY_DECLARATION = Pattern.compile(
            "^\\s*local\\s+([A-Za-z_]\\w*(?:\\s*,\\s*[A-Za-z_]\\w*)*)\\s*=\\s*(KEYS\\[\\d+\\](?:\\s*,\\s*KEYS\\[\\d+\\])*)\\s*$");
    /** KEYS indexed by anything but an integer literal, or KEYS used whole. */
    private static final Pattern COMPUTED_KEYS = Pattern.compile("\\bKEYS\\b(?!\\[\\d+\\])");

    private static final Pattern KEYS_INDEX = Pattern.compile("^KEYS\\[\\d+\\]$");

    private static final String INCLUDES = "/includes/";
    private static final Pattern INCLUDE_LINE = Pattern.compile("(?m)^--- @include \"(\\w+)\"");

    /** Every shipped file by its class-path name, as written. */
    private static Map<String, String> written;
    /** The same, without comments. */
    private static Map<String, String> scripts;

    private static Set<String> keyLocals;

    @BeforeAll
    static void findScripts() throws IOException {
        scripts = new TreeMap<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p)) {
                try (Stream<Path> files = Files.walk(p)) {
                    for (Path f :
                            files.filter(f -> f.toString().endsWith(".lua")).toList()) {
                        String name = p.relativize(f).toString().replace(File.separatorChar, '/');
                        if (name.startsWith("io/queuekit/")) {
                            scripts.put(name, Files.readString(f));
                        }
                    }
                }
            } else if (entry.endsWith(".jar") && Files.exists(p)) {
                try (JarFile jar = new JarFile(p.toFile())) {
                    for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                        JarEntry j = e.nextElement();
                        if (j.getName().startsWith("io/queuekit/")
                                && j.getName().endsWith(".lua")) {
                            try (InputStream in = jar.getInputStream(j)) {
                                scripts.put(j.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
                            }
                        }
                    }
                }
            }
        }
        written = new TreeMap<>(scripts);
        scripts.replaceAll((name, source) -> stripComments(source));
        keyLocals = new LinkedHashSet<>();
        for (String source : scripts.values()) {
            for (String line : source.split("\n")) {
                Matcher m = KEY_DECLARATION.matcher(line);
                if (m.matches()) {
                    for (String k : m.group(1).split(",")) {
                        keyLocals.add(k.trim());
                    }
                }
            }
        }
        System.out.println("Lua scripts checked: " + scripts.keySet() + "; key locals: " + keyLocals);
    }

    @Test
    void everyTransportShipsScripts() {
        assertThat(scripts.keySet())
                .anyMatch(n -> n.startsWith("io/queuekit/redis/lua/"))
                .anyMatch(n -> n.startsWith("io/queuekit/redis/list/"))
                .anyMatch(n -> n.startsWith("io/queuekit/redis/zset/"))
                .anyMatch(n -> n.startsWith("io/queuekit/redis/stream/"));
        assertThat(keyLocals).isNotEmpty();
    }

    @Test
    void keysIsIndexedOnlyByLiterals_andTheKeyLocalsAreNeverReassigned() {
        assertThat(keyProblems(scripts, keyLocals)).isEmpty();
    }

    @Test
    void everyRedisCallPassesKeyLocalsAtItsKeyPositions_andNamesItsCommandLiterally() {
        List<String> problems = new ArrayList<>();
        int calls = callProblems(scripts, keyLocals, problems);
        System.out.println("redis.call sites checked: " + calls);
        assertThat(calls).isGreaterThan(20);
        assertThat(problems).isEmpty();
    }

    @Test
    void everyComposedScript_passesOnlyKeysItDeclares_atEveryKeyPosition() {
        Map<String, String> composed = composedScripts();
        List<String> problems = new ArrayList<>();
        int calls = callProblems(composed, Set.of(), problems);
        composed.forEach((name, source) -> {
            Matcher k = Pattern.compile("\\bK_\\w+").matcher(source);
            while (k.find()) {
                problems.add(
                        name + ":" + line(source, k.start()) + " reads " + k.group() + ", a key it does not declare");
            }
        });
        System.out.println("composed scripts checked: " + composed.keySet() + "; redis.call sites: " + calls);
        assertThat(composed.keySet()).anyMatch(n -> n.contains("dead_move.lua"));
        assertThat(calls).isGreaterThan(100);
        assertThat(problems).isEmpty();
    }

    @Test
    void everyIncludeFile_isIncludedBySomeScript() {
        Set<String> included = new HashSet<>();
        for (String source : written.values()) {
            Matcher m = INCLUDE_LINE.matcher(source);
            while (m.find()) {
                included.add(m.group(1));
            }
        }
        List<String> unused = new ArrayList<>();
        for (String name : written.keySet()) {
            if (name.contains(INCLUDES)
                    && !included.contains(name.substring(name.lastIndexOf('/') + 1, name.length() - 4))) {
                unused.add(name);
            }
        }
        assertThat(included).isNotEmpty();
        assertThat(unused).isEmpty();
    }

    /**
     * Each operation composed as its queue composes it (one in {@code lua/}, which both queues
     * run, once with each queue's includes), without comments, by "operation with includes".
     */
    private static Map<String, String> composedScripts() {
        Set<String> transports = new TreeSet<>();
        for (String name : written.keySet()) {
            if (name.contains(INCLUDES) && !name.startsWith(CORE)) {
                transports.add("/" + name.substring(0, name.indexOf(INCLUDES) + INCLUDES.length()));
            }
        }
        Map<String, String> out = new TreeMap<>();
        for (String name : written.keySet()) {
            if (name.contains(INCLUDES)) {
                continue;
            }
            for (String own : transports) {
                if (name.startsWith(CORE) || own.startsWith("/" + name.substring(0, name.lastIndexOf('/') + 1))) {
                    LuaScript s = LuaScript.compose(
                            LuaKeyDisciplineTest.class, List.of(own, RedisContext.CORE_INCLUDES), "/" + name);
                    out.put(name + " with " + own, stripComments(s.source()));
                }
            }
        }
        return out;
    }

    /** One reading of the server's clock for every script: now_ms, so all truncate it alike. */
    @Test
    void onlyNowMs_readsTheServersClock() {
        List<String> readers = new ArrayList<>();
        scripts.forEach((name, source) -> {
            if (source.matches("(?s).*redis\\.p?call\\s*\\(\\s*['\"]TIME['\"].*")
                    && !name.endsWith("/includes/now_ms.lua")) {
                readers.add(name);
            }
        });
        assertThat(scripts.keySet()).anyMatch(n -> n.endsWith("/includes/now_ms.lua"));
        assertThat(readers).isEmpty();
    }

    @Test
    void noScriptLoadsOrBuildsCode() {
        assertThat(codeProblems(scripts)).isEmpty();
    }

    /** The check itself finds what it is meant to find. */
    @Test
    void theCheckFlagsKeysAndCodeBuiltFromInput() {
        Map<String, String> bad = Map.of(
                "bad.lua",
                stripComments(String.join(
                        "\n",
                        "local K_BODY = KEYS[1]",
                        "redis.call('HSET', K_BODY .. ARGV[1], 'f', 'v')",
                        "redis.call('GET', 'queuekit:{' .. ARGV[2] .. '}:body')",
                        "redis.call('DEL', KEYS[tonumber(ARGV[3])])",
                        "redis.call(ARGV[4], K_BODY)",
                        "K_BODY = ARGV[5]",
                        "local f = loadstring(ARGV[6])",
                        "redis.call('HGET', K_BODY, ARGV[1]) -- redis.call('GET', ARGV[1]) in a comment is fine")));
        Set<String> locals = Set.of("K_BODY");
        List<String> calls = new ArrayList<>();
        callProblems(bad, locals, calls);
        assertThat(calls).hasSize(4);
        assertThat(keyProblems(bad, locals)).hasSize(2);
        assertThat(codeProblems(bad)).hasSize(1);
    }

    private static List<String> keyProblems(Map<String, String> scripts, Set<String> keyLocals) {
        List<String> problems = new ArrayList<>();
        scripts.forEach((name, source) -> {
            String[] lines = source.split("\n");
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i];
                Matcher computed = COMPUTED_KEYS.matcher(line);
                if (computed.find()) {
                    problems.add(
                            name + ":" + (i + 1) + " indexes KEYS with something other than a number: " + line.trim());
                }
                if (KEY_DECLARATION.matcher(line).matches()) {
                    continue;
                }
                for (String k : keyLocals) {
                    if (Pattern.compile("(?<![\\w.])" + k + "\\s*=(?!=)")
                            .matcher(line)
                            .find()) {
                        problems.add(name + ":" + (i + 1) + " assigns the key local " + k + ": " + line.trim());
                    }
                }
            }
        });
        return problems;
    }

    /** Adds a problem for every call that breaks the rules; returns how many calls there were. */
    private static int callProblems(Map<String, String> scripts, Set<String> keyLocals, List<String> problems) {
        int calls = 0;
        for (Map.Entry<String, String> s : scripts.entrySet()) {
            String source = s.getValue();
            Matcher m = Pattern.compile("redis\\.p?call\\s*\\(").matcher(source);
            while (m.find()) {
                calls++;
                List<String> args = arguments(source, m.end());
                String where = s.getKey() + ":" + line(source, m.start());
                String command = args.isEmpty() ? "" : args.get(0);
                if (!command.matches("'[A-Za-z]+'|\"[A-Za-z]+\"")) {
                    problems.add(where + " command is not a string literal: " + command);
                    continue;
                }
                String name = command.substring(1, command.length() - 1).toUpperCase();
                List<Integer> keys = KEY_POSITIONS.get(name);
                if (keys == null) {
                    problems.add(where + " " + name + ": unknown to this check; add its key positions");
                    continue;
                }
                for (int k : keys) {
                    String arg = k < args.size() ? args.get(k) : "(missing)";
                    if (!keyLocals.contains(arg) && !KEYS_INDEX.matcher(arg).matches()) {
                        problems.add(where + " " + name + " key argument " + k + " is not a KEYS local: " + arg);
                    }
                }
            }
        }
        return calls;
    }

    private static List<String> codeProblems(Map<String, String> scripts) {
        List<String> problems = new ArrayList<>();
        scripts.forEach((name, source) -> {
            Matcher m = FORBIDDEN.matcher(source);
            while (m.find()) {
                problems.add(name + ":" + line(source, m.start()) + " " + m.group());
            }
        });
        return problems;
    }

    /** The arguments of a call whose opening parenthesis ends at {@code from}, split at top-level commas. */
    private static List<String> arguments(String s, int from) {
        List<String> out = new ArrayList<>();
        StringBuilder arg = new StringBuilder();
        int depth = 0;
        char quote = 0;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                arg.append(c);
                if (c == '\\') {
                    arg.append(s.charAt(++i));
                } else if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
                arg.append(c);
            } else if (c == '(' || c == '{' || c == '[') {
                depth++;
                arg.append(c);
            } else if (c == ')' || c == '}' || c == ']') {
                if (depth == 0) {
                    out.add(arg.toString().trim());
                    return out;
                }
                depth--;
                arg.append(c);
            } else if (c == ',' && depth == 0) {
                out.add(arg.toString().trim());
                arg.setLength(0);
            } else {
                arg.append(c);
            }
        }
        throw new IllegalStateException("unbalanced call at offset " + from);
    }

    /** Removes {@code --} comments (line and block), keeping line breaks and string literals. */
    private static String stripComments(String s) {
        StringBuilder out = new StringBuilder(s.length());
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                out.append(c);
                if (c == '\\' && i + 1 < s.length()) {
                    out.append(s.charAt(++i));
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                out.append(c);
            } else if (c == '-' && s.startsWith("--", i)) {
                if (s.startsWith("--[[", i)) {
                    int end = s.indexOf("]]", i);
                    end = end < 0 ? s.length() : end + 2;
                    s.substring(i, end).chars().filter(ch -> ch == '\n').forEach(ch -> out.append('\n'));
                    i = end - 1;
                } else {
                    int end = s.indexOf('\n', i);
                    i = (end < 0 ? s.length() : end) - 1;
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static int line(String s, int offset) {
        int n = 1;
        for (int i = 0; i < offset; i++) {
            if (s.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }
}

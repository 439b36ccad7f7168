package io.queuekit.cli;

import io.queuekit.testing.RedisServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;

/** Runs the command line as an operator would, and reads back what it printed and what it left in Redis. */
final class Cli {
    private final Map<String, String> env = new HashMap<>();
    private Terminal terminal = Terminal.NONE;

    static Cli cli() {
        return new Cli();
    }

    Cli env(String name, String value) {
        env.put(name, value);
        return this;
    }

    Cli terminal(Terminal terminal) {
        this.terminal = terminal;
        return this;
    }

    Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.copyOf(env),
                terminal);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Exit status and the two streams of one run. */
    record Result(int exit, String out, String err) {}

    static String redisUri() {
        return RedisServer.shared().uri();
    }

    static String unique() {
        return "cli-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * Every key under {@code base} ({@code prefix:{name}}) with its DUMP: two equal snapshots mean
     * nothing in the queue changed.
     */
    static Map<String, String> snapshot(UnifiedJedis jedis, String base) {
        Map<String, String> keys = new TreeMap<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        ScanParams match = new ScanParams()
                .match(base.replace("{", "\\{").replace("}", "\\}") + ":*")
                .count(1000);
        do {
            var r = jedis.scan(cursor, match);
            for (String k : r.getResult()) {
                byte[] dump = jedis.dump(k);
                keys.put(k, dump == null ? "(gone)" : Base64.getEncoder().encodeToString(dump));
            }
            cursor = r.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return keys;
    }

    /** A terminal with a person at it who gives these answers, in order. */
    static final class ScriptedTerminal implements Terminal {
        private final List<String> answers;
        final List<String> prompts = new ArrayList<>();

        ScriptedTerminal(String... answers) {
            this.answers = new ArrayList<>(List.of(answers));
        }

        @Override
        public boolean interactive() {
            return true;
        }

        @Override
        public String readLine(String prompt) {
            prompts.add(prompt);
            return answers.isEmpty() ? null : answers.remove(0);
        }
    }
}

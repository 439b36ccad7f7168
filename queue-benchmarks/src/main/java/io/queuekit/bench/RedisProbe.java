package io.queuekit.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.RedisClient;

/** Reads server-side figures (INFO memory and cpu) and clears the server between runs. */
final class RedisProbe implements AutoCloseable {
    private final RedisClient client;

    RedisProbe(String uri) {
        this.client = RedisClient.create(uri);
    }

    /** Deletes every key; the server is this benchmark's own. */
    void flushAll() {
        client.flushAll();
    }

    /** {@code used_memory} from INFO memory, in bytes. */
    long usedMemory() {
        return (long) field(client.info("memory"), "used_memory");
    }

    /** {@code used_cpu_sys + used_cpu_user} from INFO cpu, in microseconds. */
    long cpuMicros() {
        String info = client.info("cpu");
        return Math.round((field(info, "used_cpu_sys") + field(info, "used_cpu_user")) * 1_000_000);
    }

    /** Calls and microseconds per command from INFO commandstats (commands run by scripts included). */
    Map<String, long[]> commandStats() {
        Map<String, long[]> out = new HashMap<>();
        for (String line : client.info("commandstats").split("\r?\n", -1)) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String name = line.substring("cmdstat_".length(), line.indexOf(':'));
            long calls = 0;
            long usec = 0;
            for (String kv : line.substring(line.indexOf(':') + 1).split(",", -1)) {
                if (kv.startsWith("calls=")) {
                    calls = Long.parseLong(kv.substring(6));
                } else if (kv.startsWith("usec=")) {
                    usec = Long.parseLong(kv.substring(5));
                }
            }
            out.put(name, new long[] {calls, usec});
        }
        return out;
    }

    /**
     * The commands run between two {@link #commandStats()} snapshots, most called first, per
     * message: {@code "evalsha 2.00 (31.2 us, 15.6 us/call), blpop 1.10 (0.4 us)"}; a script's
     * time includes the commands it runs, which are also listed on their own. This probe's own commands and
     * those called less than once per 200 messages are left out.
     */
    static String perMessage(Map<String, long[]> before, Map<String, long[]> after, long messages, int top) {
        Set<String> own = Set.of("info", "flushall");
        List<Map.Entry<String, long[]>> deltas = new ArrayList<>();
        for (Map.Entry<String, long[]> e : after.entrySet()) {
            long[] b = before.getOrDefault(e.getKey(), new long[2]);
            long calls = e.getValue()[0] - b[0];
            if (calls * 200 >= messages && !own.contains(e.getKey())) {
                deltas.add(Map.entry(e.getKey(), new long[] {calls, e.getValue()[1] - b[1]}));
            }
        }
        deltas.sort((x, y) -> Long.compare(y.getValue()[0], x.getValue()[0]));
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, long[]> e : deltas.subList(0, Math.min(top, deltas.size()))) {
            String perCall = e.getKey().startsWith("eval")
                    ? String.format(Locale.ROOT, ", %.1f us/call", e.getValue()[1] / (double) e.getValue()[0])
                    : "";
            parts.add(String.format(
                    Locale.ROOT,
                    "%s %.2f (%.1f us%s)",
                    e.getKey(),
                    e.getValue()[0] / (double) messages,
                    e.getValue()[1] / (double) messages,
                    perCall));
        }
        return String.join(", ", parts);
    }

    String version() {
        return String.valueOf(info("server", "redis_version"));
    }

    private String info(String section, String name) {
        for (String line : client.info(section).split("\r?\n", -1)) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return "unknown";
    }

    private static double field(String info, String name) {
        for (String line : info.split("\r?\n", -1)) {
            if (line.startsWith(name + ":")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new IllegalStateException("INFO has no field " + name);
    }

    @Override
    public void close() {
        client.close();
    }
}

package io.queuekit.bench;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.Jedis;

/**
 * Reads server-side figures (INFO) over one connection of its own, no pool (a pool's idle checks
 * would add calls of their own), and counts the calls it makes, so that a run's counts can leave
 * them out.
 */
final class RedisProbe implements AutoCloseable {
    /** The commands that run a script or a function. */
    static final Set<String> SCRIPT_CALLS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro");

    private final Jedis jedis;
    private final Map<String, Long> own = new HashMap<>();

    RedisProbe(String uri) {
        this.jedis = new Jedis(URI.create(uri));
        call("ping");
        jedis.ping();
    }

    /**
     * The server's counters at one moment: calls and microseconds per command from INFO
     * commandstats (commands run by scripts included), {@code total_reads_processed} from INFO
     * stats, and this probe's own calls so far by command, this snapshot's included.
     */
    record Snapshot(Map<String, long[]> commands, long reads, Map<String, Long> own) {
        Snapshot {
            commands = Map.copyOf(commands);
            own = Map.copyOf(own);
        }

        /** Calls and microseconds of one command, zeros if it never ran. */
        long[] command(String name) {
            long[] c = commands.get(name);
            return c == null ? new long[2] : c.clone();
        }

        /** The sum of two servers' snapshots. */
        Snapshot plus(Snapshot other) {
            Map<String, long[]> sum = new HashMap<>(commands);
            other.commands.forEach((k, v) -> sum.merge(k, v, (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]}));
            Map<String, Long> ownSum = new HashMap<>(own);
            other.own.forEach((k, v) -> ownSum.merge(k, v, Long::sum));
            return new Snapshot(sum, reads + other.reads, ownSum);
        }

        private long ownTotal() {
            return own.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** A run's counts per message and its most called commands, as {@link #costs} gives them. */
    record Costs(Counts counts, String commands) {
        /** The same with a text put before the commands. */
        Costs prefixed(String text) {
            return new Costs(counts, text + commands);
        }
    }

    /** Deletes every key; the server is this benchmark's own. */
    synchronized void flushAll() {
        call("flushall");
        jedis.flushAll();
    }

    /** {@code used_memory} from INFO memory, in bytes. */
    synchronized long usedMemory() {
        return (long) field(info("memory"), "used_memory");
    }

    /** {@code used_cpu_sys + used_cpu_user} from INFO cpu, in microseconds. */
    synchronized long cpuMicros() {
        String info = info("cpu");
        return Math.round((field(info, "used_cpu_sys") + field(info, "used_cpu_user")) * 1_000_000);
    }

    /** The server's process id (INFO server), for pinning it to a core. */
    synchronized long pid() {
        return (long) field(info("server"), "process_id");
    }

    /** The counters now: two INFO calls, always the same two, so that two snapshots' own calls cancel out. */
    synchronized Snapshot commandStats() {
        long reads = (long) field(info("stats"), "total_reads_processed");
        Map<String, long[]> out = new HashMap<>();
        for (String line : info("commandstats").split("\r?\n", -1)) {
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
        return new Snapshot(out, reads, own);
    }

    /**
     * What the server did between two snapshots, less this probe's calls: the {@link Counts} per
     * message, and the commands called at least once per 200 messages, most called first, per
     * message: {@code "evalsha 2.00 (31.2 us, 15.6 us/call), blpop 1.10 (0.4 us)"}; a script's time
     * includes the commands it runs, which are also listed on their own.
     *
     * <p>Each snapshot makes the same calls, so the probe's calls the counters show between two
     * snapshots are as many as it made between them: INFO counts a command when it has run (so
     * the first snapshot's last call is in, the second's is not) and a read when it is read (the
     * first's first call is out, the second's is in).
     */
    static Costs costs(Snapshot before, Snapshot after, long messages, int top) {
        List<Map.Entry<String, long[]>> deltas = new ArrayList<>();
        long scripts = 0;
        long commands = 0;
        for (Map.Entry<String, long[]> e : after.commands().entrySet()) {
            String name = e.getKey();
            long[] b = before.command(name);
            long calls = e.getValue()[0]
                    - b[0]
                    - (after.own().getOrDefault(name, 0L) - before.own().getOrDefault(name, 0L));
            if (calls <= 0) {
                continue;
            }
            commands += calls;
            if (SCRIPT_CALLS.contains(name)) {
                scripts += calls;
            }
            if (calls * 200 >= messages) {
                deltas.add(Map.entry(name, new long[] {calls, e.getValue()[1] - b[1]}));
            }
        }
        long reads = after.reads() - before.reads() - (after.ownTotal() - before.ownTotal());
        deltas.sort((x, y) -> Long.compare(y.getValue()[0], x.getValue()[0]));
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, long[]> e : deltas.subList(0, Math.min(top, deltas.size()))) {
            String perCall = e.getKey().startsWith("eval") || e.getKey().startsWith("fcall")
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
        double n = Math.max(1, messages);
        return new Costs(new Counts(scripts / n, commands / n, Math.max(0, reads) / n), String.join(", ", parts));
    }

    synchronized String version() {
        for (String line : info("server").split("\r?\n", -1)) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length()).trim();
            }
        }
        return "unknown";
    }

    private String info(String section) {
        call("info");
        return jedis.info(section);
    }

    private void call(String command) {
        own.merge(command, 1L, Long::sum);
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
    public synchronized void close() {
        jedis.close();
    }
}

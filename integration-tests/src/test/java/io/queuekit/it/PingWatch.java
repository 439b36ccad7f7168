package io.queuekit.it;

import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.resps.Slowlog;

/**
 * Another client of a server, sending PING in a loop on a connection of its own, that records how
 * long each PING waited: Redis runs one command or script at a time, so a long script shows as a
 * PING that waited for it. The test names what it runs ({@link #during}); each PING's wait counts
 * for what ran when it was sent and what ran when its reply came. Beside the waits, which a busy
 * host lengthens too, it reads the server's own time for the longest command of each run from
 * the slow log (it logs commands over 0.5 ms, and is reset at each run: a server of the test's own).
 *
 * <pre>{@code
 * try (PingWatch watch = PingWatch.start(server)) {
 *     watch.during("stats", q::stats);
 *     assertThat(watch.stallsOfAtLeast(50)).isEmpty();
 * }
 * }</pre>
 */
final class PingWatch implements AutoCloseable {
    private static final String IDLE = "(between calls)";
    private static final long LOGGED_MICROS = 500;

    private final Jedis jedis;
    private final Jedis slowLog;
    private final Thread pinger;
    private final Map<String, Long> longestNanos = new LinkedHashMap<>();
    private final Map<String, Long> longestCommandMicros = new LinkedHashMap<>();
    /** PINGs answered; guarded by {@code longestNanos}, as the waits are. */
    private long replies;

    private volatile String current = IDLE;
    private volatile boolean stopping;
    private volatile RuntimeException failure;

    private PingWatch(RedisServer server) {
        this.jedis = new Jedis(
                new HostAndPort(server.host(), server.port()),
                DefaultJedisClientConfig.builder()
                        .connectionTimeoutMillis((int) RedisClients.CONNECTION_TIMEOUT.toMillis())
                        .socketTimeoutMillis(10_000)
                        .protocol(RedisProtocol.RESP2)
                        .build());
        jedis.ping(); // connected before the first call it watches
        this.slowLog = new Jedis(
                new HostAndPort(server.host(), server.port()),
                DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP2).build());
        slowLog.configSet("slowlog-log-slower-than", Long.toString(LOGGED_MICROS));
        slowLog.configSet("slowlog-max-len", "10000");
        this.pinger = new Thread(this::pingUntilClosed, "ping-watch-" + server.port());
        pinger.setDaemon(true);
        pinger.start();
    }

    /** Starts sending PING to {@code server}. */
    static PingWatch start(RedisServer server) {
        return new PingWatch(server);
    }

    /**
     * Runs {@code action} as {@code what}: PINGs that waited meanwhile count for it, at least one
     * sent after it began (waited for, up to 10 s), so that even a short action has a wait.
     */
    void during(String what, ThrowingRunnable action) throws Exception {
        slowLog.slowlogReset();
        current = what;
        long before = replies();
        try {
            action.run();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            synchronized (longestNanos) {
                long left;
                while (replies < before + 2 && failure == null && (left = deadline - System.nanoTime()) > 0) {
                    TimeUnit.NANOSECONDS.timedWait(longestNanos, left);
                }
            }
        } finally {
            current = IDLE;
            long longest = 0;
            for (Slowlog entry : slowLog.slowlogGet(10_000)) {
                if (!entry.getArgs().isEmpty() && !entry.getArgs().get(0).equalsIgnoreCase("ping")) {
                    longest = Math.max(longest, entry.getExecutionTime());
                }
            }
            longestCommandMicros.merge(what, longest, Math::max);
        }
    }

    /**
     * The server's time (ms, fractional) for the longest command of each name given to
     * {@link #during}, in order: 0 where none took over 0.5 ms.
     */
    Map<String, Double> longestCommandsMillis() {
        Map<String, Double> out = new LinkedHashMap<>();
        longestCommandMicros.forEach((what, micros) -> out.put(what, micros / 1e3));
        return out;
    }

    /** The longest wait of a PING (ms, fractional) for each name given to {@link #during}, in order. */
    Map<String, Double> longestWaitsMillis() {
        RuntimeException f = failure;
        if (f != null) {
            throw f;
        }
        Map<String, Double> out = new LinkedHashMap<>();
        synchronized (longestNanos) {
            longestNanos.forEach((what, nanos) -> {
                if (!what.equals(IDLE)) {
                    out.put(what, nanos / 1e6);
                }
            });
        }
        return out;
    }

    private void pingUntilClosed() {
        try {
            while (!stopping) {
                String sentDuring = current;
                long start = System.nanoTime();
                jedis.ping();
                long waited = System.nanoTime() - start;
                synchronized (longestNanos) {
                    longestNanos.merge(sentDuring, waited, Math::max);
                    longestNanos.merge(current, waited, Math::max);
                    replies++;
                    longestNanos.notifyAll();
                }
            }
        } catch (RuntimeException e) {
            if (!stopping) {
                failure = e;
            }
        }
    }

    /**
     * One line for each name given to {@link #during}, in order: the longest wait of a PING, and
     * the server's time for the longest command.
     */
    String report() {
        return String.join("", lines(0));
    }

    /**
     * The lines of {@link #report} where the server stalled for {@code millis} or longer: a PING
     * waited that long, and a command ran that long (a wait alone may be the host's: a busy host
     * runs the client of the PINGs late too). Empty if none.
     */
    List<String> stallsOfAtLeast(double millis) {
        return lines(millis);
    }

    private List<String> lines(double atLeastMillis) {
        Map<String, Double> commands = longestCommandsMillis();
        List<String> out = new ArrayList<>();
        longestWaitsMillis().forEach((what, ms) -> {
            if (ms >= atLeastMillis && commands.get(what) >= atLeastMillis) {
                out.add(String.format(
                        "PING waited up to %6.1f ms, the longest command ran %5.1f ms: %s%n",
                        ms, commands.get(what), what));
            }
        });
        return out;
    }

    private long replies() {
        synchronized (longestNanos) {
            return replies;
        }
    }

    /** Stops the PINGs and closes the connection; interrupted, it closes all the same and keeps the interrupt. */
    @Override
    public void close() {
        stopping = true;
        try {
            pinger.join(TimeUnit.SECONDS.toMillis(15));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            jedis.close();
            slowLog.close();
        }
    }

    /** What {@link #during} runs. */
    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}

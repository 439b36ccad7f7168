package io.queuekit.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Waits until a server answers PING and has finished loading its dataset. Polling with a short backoff
 * rather than watching the log works for every source and needs no knowledge of log formats.
 */
final class Readiness {

    // Short first attempts notice quickly that a process died after a port-conflict listener accepted the
    // connection; longer later ones leave room for a slow TLS handshake to a remote server.
    private static final int FIRST_ATTEMPT_MILLIS = 250;
    private static final int MAX_ATTEMPT_MILLIS = 2_000;
    private static final long MAX_BACKOFF_MILLIS = 100;

    private Readiness() {}

    /** How a wait ended. {@code problem} is the last thing that went wrong, or null when ready. */
    record Outcome(boolean ready, boolean exited, String problem) {}

    /**
     * @param connect opens a connection with the given timeout in milliseconds
     * @param alive false once the server can no longer come up (its process exited)
     */
    static Outcome await(IntFunction<Jedis> connect, BooleanSupplier alive, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoff = 5;
        int attemptMillis = FIRST_ATTEMPT_MILLIS;
        String problem = "no answer yet";
        while (true) {
            if (!alive.getAsBoolean()) {
                return new Outcome(false, true, problem);
            }
            long remaining = (deadline - System.nanoTime()) / 1_000_000;
            if (remaining <= 0) {
                return new Outcome(false, false, problem);
            }
            // A connection refused while the server is still binding is expected; only the last one counts.
            try (Jedis jedis = connect.apply((int) Math.max(1, Math.min(attemptMillis, remaining)))) {
                String pong = jedis.ping();
                if (!"PONG".equalsIgnoreCase(pong)) {
                    problem = "PING answered " + pong;
                } else if (isLoading(jedis.info("persistence"))) {
                    problem = "still loading the dataset";
                } else {
                    return new Outcome(true, false, null);
                }
            } catch (JedisException e) {
                problem = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            Thread.sleep(backoff);
            backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
            attemptMillis = Math.min(attemptMillis * 2, MAX_ATTEMPT_MILLIS);
        }
    }

    /** PING already answers LOADING during a replay; INFO is checked too in case a version lets PING through. */
    static boolean isLoading(String persistenceInfo) {
        return "1".equals(infoField(persistenceInfo, "loading"))
                || "1".equals(infoField(persistenceInfo, "async_loading"));
    }

    static String infoField(String info, String name) {
        String prefix = name + ":";
        for (String line : info.split("\r?\n", -1)) {
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length()).trim();
            }
        }
        return "unknown";
    }
}

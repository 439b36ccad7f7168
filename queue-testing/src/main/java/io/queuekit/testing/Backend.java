package io.queuekit.testing;

import java.nio.file.Path;
import java.util.Optional;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/** One way of having a Redis: a child process, an external server or a container. */
interface Backend {

    String host();

    int port();

    String uri();

    /** A new connection with both timeouts set to {@code timeoutMillis}; the caller closes it. */
    Jedis connect(int timeoutMillis);

    boolean supportsProcessControl();

    void kill();

    void stop();

    void restart();

    boolean isRunning();

    Optional<Path> dataDirectory();

    /** Idempotent; never throws. */
    void close();

    /**
     * A backend whose process is not ours to control: {@code kill}, {@code stop} and {@code restart}
     * are refused with a message saying why and what to use for fault tests instead.
     */
    interface Uncontrolled extends Backend {

        /** What it is and why it cannot be controlled, to follow "cannot kill ". */
        String uncontrolled();

        @Override
        default boolean supportsProcessControl() {
            return false;
        }

        @Override
        default void kill() {
            throw refused("kill");
        }

        @Override
        default void stop() {
            throw refused("stop");
        }

        @Override
        default void restart() {
            throw refused("restart");
        }

        private UnsupportedOperationException refused(String operation) {
            return new UnsupportedOperationException("cannot " + operation + " " + uncontrolled() + ". For fault"
                    + " tests use a server started here: RedisServer.builder().requireProcessControl() or"
                    + " source(Source.PATH or EMBEDDED)");
        }
    }

    default String version() {
        try (Jedis jedis = connect(5_000)) {
            return Readiness.infoField(jedis.info("server"), "redis_version");
        } catch (JedisException e) {
            return "unknown";
        }
    }
}

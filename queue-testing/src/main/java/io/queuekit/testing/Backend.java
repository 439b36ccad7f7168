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

    default String version() {
        try (Jedis jedis = connect(5_000)) {
            return Readiness.infoField(jedis.info("server"), "redis_version");
        } catch (JedisException e) {
            return "unknown";
        }
    }
}

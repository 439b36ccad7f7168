package io.queuekit.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit 5 test class that runs against a real Redis: its constructor, test methods and lifecycle
 * methods may declare parameters of type {@link RedisServer}, {@link redis.clients.jedis.UnifiedJedis} and
 * {@link redis.clients.jedis.RedisClient} (Jedis 7.4 and later; on Jedis 7.0 the client is a {@code JedisPooled},
 * which a {@code UnifiedJedis} parameter takes).
 *
 * <pre>{@code
 * @RedisServerTest
 * class OrdersQueueTest {
 *     private final RedisClient client;
 *
 *     OrdersQueueTest(RedisClient client) {
 *         this.client = client;
 *     }
 *
 *     @Test
 *     void send_thenPoll_returnsTheMessage() { ... }
 * }
 * }</pre>
 *
 * <p>The server is {@link RedisServer#shared()} by default (so use unique keys and queue names), or one
 * started for the class alone with {@code server = PER_CLASS}; the client, from {@link RedisClients#pooled},
 * is one per test class, {@code @Nested} classes included, the same object whichever type a parameter asks for. Both are made on first use and closed by the
 * extension after the class's last test: tests must not close them. A test that needs another client
 * builds it with {@link RedisClients#builder(RedisServer)}, and one that kills or reconfigures a server
 * starts its own with {@link RedisServer#builder()}; either closes what it built.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RedisServerExtension.class)
public @interface RedisServerTest {

    /** Which server the class's tests get; {@link Server#SHARED} unless it says otherwise. */
    Server server() default Server.SHARED;

    /** Where the server of a {@link RedisServerTest} class comes from. */
    enum Server {
        /**
         * {@link RedisServer#shared()}: one per JVM for every class that asks, possibly an external server
         * named by {@code REDIS_URL}. Tests use unique keys and queue names, and never flush, kill or restart
         * it.
         */
        SHARED,
        /**
         * A server started for this class alone with {@link RedisServer.Builder#requireProcessControl()}, a
         * child process of this JVM on a free port, closed after the class's last test: its keyspace, its
         * statistics ({@code INFO}, {@code CLIENT LIST}) and its process are the class's own.
         */
        PER_CLASS
    }
}

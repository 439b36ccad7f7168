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
 * methods may declare parameters of type {@link RedisServer} and {@link redis.clients.jedis.RedisClient}.
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
 * <p>The server is {@link RedisServer#shared()} by default, or one started for the class alone with
 * {@code server = PER_CLASS}. The client is one per test class, built by {@link RedisClients#create} with
 * the settings docs/reliability-and-security.md recommends; every parameter of the class and of its
 * {@code @Nested} classes gets the same one. The extension closes the client after the class's last test,
 * and a {@code PER_CLASS} server after that; tests must not close either. Both are made on first use, so a class that asks only
 * for the server opens no client.
 *
 * <p>Tests that need another client (another protocol, shorter timeouts, a smaller pool) build it from the
 * server with {@link RedisClients#builder(RedisServer)} and close it themselves. Tests that kill or restart
 * a server between tests, or need one with special configuration, start it with
 * {@link RedisServer#builder()}.
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

package io.queuekit.it;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.MessageQueue;
import io.queuekit.TransportException;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Connections that die silently: a {@link FreezingProxy} between the client and Redis stops
 * passing bytes without closing anything. A consumer blocked in BLMOVE, BRPOP or BLPOP, and a
 * broadcast subscription, notice it within the client's {@code blockingSocketTimeoutMillis} (which
 * must exceed the queue's block timeout; Jedis' default of 0 would wait forever) and carry on over
 * a fresh connection.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest(server = PER_CLASS)
class SilentConnectionDeathTest {
    private static final Duration BLOCK = Duration.ofMillis(500);
    private static final Duration VISIBILITY = Duration.ofSeconds(2);
    private static final long SOCKET_TIMEOUT_MILLIS = RedisClients.SOCKET_TIMEOUT.toMillis();
    private static RedisServer server;
    private static RedisClient direct;

    @BeforeAll
    static void connect(RedisServer redis, RedisClient client) {
        server = redis;
        direct = client;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void blockedConsumer_noticesAFrozenConnection_andCarriesOnOverAFreshOne(Transport transport) throws Exception {
        String name = "frozen-" + transport.name().toLowerCase().replace('_', '-');
        try (FreezingProxy proxy = new FreezingProxy(server.host(), server.port());
                RedisClient viaProxy = RedisClients.builder(server)
                        .address(proxy.host(), proxy.port())
                        .poolSize(4)
                        .build();
                MessageQueue<String> consumerSide = transport.build(
                        viaProxy, name, Codec.utf8(), b -> b.blockTimeout(BLOCK).visibilityTimeout(VISIBILITY));
                MessageQueue<String> producerSide = transport.build(
                        direct, name, Codec.utf8(), b -> b.blockTimeout(BLOCK).visibilityTimeout(VISIBILITY))) {
            Set<String> received = ConcurrentHashMap.newKeySet();
            consumerSide.consume(
                    d -> received.add(d.payload()),
                    ConsumeOptions.builder().pollTimeout(BLOCK).build());
            producerSide.send("before");
            await().atMost(Duration.ofSeconds(5)).until(() -> received.contains("before"));
            awaitBlockedClients(1);
            int connections = proxy.accepted();

            proxy.freezeExisting();
            if (!transport.atLeastOnce()) {
                // at-most-once: a message popped by a BRPOP whose reply is lost is gone, as documented;
                // send only once the server ended the frozen connection's blocking command
                awaitBlockedClients(0);
            }
            long frozeAt = System.nanoTime();
            producerSide.send("after");
            await().atMost(Duration.ofSeconds(20)).until(() -> received.contains("after"));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - frozeAt);

            System.out.printf(
                    "%s: a consumer blocked on a silently dead connection received the next message "
                            + "%d ms after the freeze, over %d fresh connection(s)%n",
                    transport, millis, proxy.accepted() - connections);
            assertThat(proxy.accepted())
                    .as("connections made through the proxy")
                    .isGreaterThan(connections);
        }
    }

    @Test
    void wholeRouteBlackHoled_consumerCarriesOnWhenTheRouteResumes() throws Exception {
        try (FreezingProxy proxy = new FreezingProxy(server.host(), server.port());
                RedisClient viaProxy = RedisClients.builder(server)
                        .address(proxy.host(), proxy.port())
                        .poolSize(4)
                        .build();
                MessageQueue<String> consumerSide = Transport.LIST_AT_LEAST_ONCE.build(
                        viaProxy,
                        "blackhole",
                        Codec.utf8(),
                        b -> b.blockTimeout(BLOCK).visibilityTimeout(VISIBILITY));
                MessageQueue<String> producerSide = Transport.LIST_AT_LEAST_ONCE.build(
                        direct,
                        "blackhole",
                        Codec.utf8(),
                        b -> b.blockTimeout(BLOCK).visibilityTimeout(VISIBILITY))) {
            Set<String> received = ConcurrentHashMap.newKeySet();
            consumerSide.consume(
                    d -> received.add(d.payload()),
                    ConsumeOptions.builder().pollTimeout(BLOCK).build());
            producerSide.send("before");
            await().atMost(Duration.ofSeconds(5)).until(() -> received.contains("before"));

            proxy.freezeAll();
            producerSide.send("during");
            Thread.sleep(3_000); // the black hole itself
            assertThat(received).doesNotContain("during");
            proxy.resume();
            long resumedAt = System.nanoTime();
            await().atMost(Duration.ofSeconds(20)).until(() -> received.contains("during"));
            System.out.printf(
                    "route black-holed for 3 s: the consumer received the waiting message %d ms after "
                            + "the route resumed%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - resumedAt));
        }
    }

    @Test
    void subscription_noticesAFrozenConnection_andSubscribesAgainOverAFreshOne() throws Exception {
        try (FreezingProxy proxy = new FreezingProxy(server.host(), server.port());
                RedisClient viaProxy = RedisClients.builder(server)
                        .address(proxy.host(), proxy.port())
                        .poolSize(4)
                        .build();
                RedisBroadcaster<String> listening = RedisBroadcaster.builder(viaProxy, "frozen", Codec.utf8())
                        .keepAliveInterval(Duration.ofMillis(300))
                        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                        .build();
                RedisBroadcaster<String> publishing =
                        RedisBroadcaster.builder(direct, "frozen", Codec.utf8()).build()) {
            Set<String> heard = ConcurrentHashMap.newKeySet();
            RedisSubscription s = listening.subscribe(heard::add);
            publishing.publish("before");
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains("before"));

            proxy.freezeExisting();
            long frozeAt = System.nanoTime();
            AtomicInteger n = new AtomicInteger();
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        publishing.publish("after-" + n.incrementAndGet());
                        return heard.stream().anyMatch(m -> m.startsWith("after-"));
                    });
            System.out.printf(
                    "subscription on a silently dead connection heard again %d ms after the freeze "
                            + "(reconnects: %d)%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - frozeAt), s.reconnects());
            assertThat(s.reconnects()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void send_overAFrozenConnection_failsWithinTheSocketTimeout_andTheNextSendUsesAFreshConnection() throws Exception {
        try (FreezingProxy proxy = new FreezingProxy(server.host(), server.port());
                RedisClient viaProxy = RedisClients.builder(server)
                        .address(proxy.host(), proxy.port())
                        .poolSize(1)
                        .build();
                MessageQueue<String> q =
                        Transport.LIST_AT_LEAST_ONCE.build(viaProxy, "frozen-send", Codec.utf8(), b -> b)) {
            q.send("one");
            proxy.freezeExisting();
            long start = System.nanoTime();
            assertThatThrownBy(() -> q.send("two"))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("send failed")
                    .hasCauseInstanceOf(JedisConnectionException.class);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(millis)
                    .as("ms until the send failed")
                    .isBetween(SOCKET_TIMEOUT_MILLIS - 100, SOCKET_TIMEOUT_MILLIS + 1_500);
            q.send("three");
            System.out.printf("send over a frozen connection failed after %d ms; the next one succeeded%n", millis);
        }
    }

    /** Waits until this many clients are blocked in a command on the server. */
    private static void awaitBlockedClients(int n) {
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> blockedClients() == n);
    }

    private static long blockedClients() {
        try (Jedis j = new Jedis(server.host(), server.port())) {
            return j.clientList()
                    .lines()
                    .filter(l -> l.matches(".*flags=\\S*b.*"))
                    .count();
        }
    }
}

package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisProtocol;

/**
 * A quiet subscribed connection sends keep-alives, so that idle-connection reapers leave it alone,
 * and they never disturb the subscription or the client's pool, in either protocol, nor wait for a
 * busy listener. Runs alone: keep-alives every 50 ms must keep the subscription from a single
 * reconnect.
 */
@Isolated
class KeepAliveTest {

    @ParameterizedTest
    @EnumSource(RedisProtocol.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void idleSubscription_sendsKeepAlives_andStillReceives(RedisProtocol protocol) {
        // a server of its own: its command statistics count only this test's keep-alives
        try (RedisServer server = RedisServer.builder().start();
                RedisClient client =
                        RedisClients.builder(server).protocol(protocol).build();
                RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "quiet", Codec.utf8())
                        .keepAliveInterval(Duration.ofMillis(50))
                        .build();
                RedisBroadcaster<String> p = RedisBroadcaster.builder(client, "quiet", Codec.utf8())
                        .keepAliveInterval(Duration.ofMillis(50))
                        .build()) {
            List<String> got = new CopyOnWriteArrayList<>();
            RedisSubscription s = b.subscribe(got::add);
            RedisSubscription ps = p.subscribePattern("qu*", (channel, m) -> got.add(channel + "=" + m));

            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> calls(server, "subscribe") >= 5 && calls(server, "psubscribe") >= 5);

            // the publishing connection comes from the same pool: it must not be left in a subscribed state
            for (int i = 0; i < 20; i++) {
                assertThat(b.publish("m" + i)).isEqualTo(2);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 40);
            assertThat(got)
                    .filteredOn(m -> !m.startsWith("quiet="))
                    .hasSize(20)
                    .first()
                    .isEqualTo("m0");
            assertThat(s.reconnects()).isZero();
            assertThat(ps.reconnects()).isZero();
        }
    }

    /**
     * Keep-alives go out on their own thread: a listener that holds its thread for far longer
     * than the keep-alive interval does not stop them, so a subscription never depends on how
     * long its listener runs.
     */
    @ParameterizedTest
    @EnumSource(RedisProtocol.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void listenerBusyForManyIntervals_keepAlivesStillGoOut(RedisProtocol protocol) throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                RedisClient client =
                        RedisClients.builder(server).protocol(protocol).build();
                RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "busy", Codec.utf8())
                        .keepAliveInterval(Duration.ofMillis(50))
                        .build()) {
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> got = new CopyOnWriteArrayList<>();
            RedisSubscription s = b.subscribe(m -> {
                got.add(m);
                holding.countDown();
                release.await(30, TimeUnit.SECONDS);
            });
            b.publish("hold");
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
            try {
                long before = calls(server, "subscribe");
                // 20 keep-alive intervals and more, all while the listener holds its thread
                await().atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> calls(server, "subscribe") >= before + 20);
                assertThat(holding.getCount()).isZero();
                assertThat(got).containsExactly("hold");
            } finally {
                release.countDown();
            }
            b.publish("after");
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("after"));
            assertThat(s.reconnects()).isZero();
        }
    }

    private static long calls(RedisServer server, String command) {
        try (Jedis jedis = new Jedis(server.host(), server.port())) {
            Matcher m = Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(jedis.info("commandstats"));
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        }
    }
}

package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.TransportException;
import io.queuekit.redis.pubsub.RedisBroadcaster.GapEvent;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisProtocol;

/** Subscriptions survive a Redis crash and restart with no action from the application. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RedisRestartTest {
    private RedisServer server;
    private RedisClient client;

    @BeforeEach
    void start() {
        server = RedisServer.builder().requireProcessControl().start();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        server.close();
    }

    @ParameterizedTest
    @EnumSource(RedisProtocol.class)
    void afterKillAndRestart_subscriptionsReceiveAgain_andTheGapIsReported(RedisProtocol protocol) {
        client = RedisClients.builder(server).protocol(protocol).build();
        List<String> timeline = new CopyOnWriteArrayList<>();
        List<GapEvent> gaps = new CopyOnWriteArrayList<>();
        try (RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "restart", Codec.utf8())
                .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                .onGap(gap -> {
                    gaps.add(gap);
                    timeline.add("gap:" + gap.subscription());
                })
                .build()) {
            RedisSubscription plain =
                    b.subscribe(m -> timeline.add(Thread.currentThread().getName() + ":" + m));
            RedisSubscription pattern = b.subscribePattern(
                    "rest*", (channel, m) -> timeline.add(Thread.currentThread().getName() + ":" + channel + "=" + m));
            String p = plain.name();
            String q = pattern.name();

            assertThat(b.publish("before")).isEqualTo(2);
            await().atMost(Duration.ofSeconds(10)).until(() -> timeline.size() == 2);

            server.kill();
            await().atMost(Duration.ofSeconds(10)).until(() -> !plain.isConnected() && !pattern.isConnected());
            assertThat(plain.isActive()).isTrue();
            server.restart();

            // the first publishes may meet pooled connections the crash broke; the subscriptions need nothing
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> publishQuietly(b, "after") == 2);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> timeline.contains(p + ":after") && timeline.contains(q + ":restart=after"));

            assertThat(plain.reconnects()).isEqualTo(1);
            assertThat(pattern.reconnects()).isEqualTo(1);
            assertThat(b.reconnects()).isEqualTo(2);
            assertThat(gaps).extracting(GapEvent::subscription).containsExactlyInAnyOrder(p, q);
            for (GapEvent gap : gaps) {
                assertThat(gap.lostAt()).isBeforeOrEqualTo(gap.resumedAt());
                assertThat(gap.duration()).isPositive();
                assertThat(gap.cause()).isNotNull();
            }
            assertThat(gaps).extracting(GapEvent::channel).containsExactlyInAnyOrder("restart", "rest*");
            // the broken connections went back to the pool as broken; only the two live ones are out
            assertThat(client.getPool().getNumActive()).isEqualTo(2);
            // the callback runs on the listener's thread, between the messages before and after the gap
            assertThat(timeline.indexOf(p + ":before")).isLessThan(timeline.indexOf("gap:" + p));
            assertThat(timeline.indexOf("gap:" + p)).isLessThan(timeline.indexOf(p + ":after"));
            assertThat(timeline.indexOf("gap:" + q)).isLessThan(timeline.indexOf(q + ":restart=after"));
        }
    }

    @Test
    void afterGracefulStopAndRestart_theSubscriptionComesBack() {
        client = RedisClients.create(server);
        try (RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "outage", Codec.utf8())
                .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(200))
                .build()) {
            List<String> got = new CopyOnWriteArrayList<>();
            RedisSubscription s = b.subscribe(got::add);
            assertThat(s.disconnectedSince()).isNull();
            Instant beforeStop = Instant.now();
            server.stop();
            await().atMost(Duration.ofSeconds(10)).until(() -> s.disconnectedSince() != null);
            assertThat(s.isConnected()).isFalse();
            assertThat(s.disconnectedSince()).isBetween(beforeStop, Instant.now());
            assertThat(s.reconnects()).isZero();
            server.restart();
            await().atMost(Duration.ofSeconds(10)).until(s::isConnected);
            assertThat(s.disconnectedSince()).isNull();
            await().atMost(Duration.ofSeconds(10)).until(() -> publishQuietly(b, "back") == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("back"));
            assertThat(s.reconnects()).isEqualTo(1);
            s.close();
            assertThat(s.disconnectedSince()).isNull();
        }
    }

    @ParameterizedTest
    @EnumSource(RedisProtocol.class)
    void afterARestart_theFirstSubscribe_doesNotFailOnStalePooledConnections(RedisProtocol protocol) {
        client = RedisClients.builder(server).protocol(protocol).build();
        try (RedisBroadcaster<String> b =
                RedisBroadcaster.builder(client, "stale", Codec.utf8()).build()) {
            assertThat(b.publish("fills the pool")).isZero();
            client.getPool().addObjects(3);
            assertThat(client.getPool().getNumIdle()).isGreaterThanOrEqualTo(3);

            server.kill();
            server.restart();

            // Redis answers; the pool's idle connections are all dead, and subscribe must not mind
            List<String> got = new CopyOnWriteArrayList<>();
            RedisSubscription s = b.subscribe(got::add);
            assertThat(s.isConnected()).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> publishQuietly(b, "after") == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("after"));
            assertThat(s.reconnects()).isZero();
        }
    }

    private static long publishQuietly(RedisBroadcaster<String> b, String message) {
        try {
            return b.publish(message);
        } catch (TransportException e) {
            return -1;
        }
    }
}

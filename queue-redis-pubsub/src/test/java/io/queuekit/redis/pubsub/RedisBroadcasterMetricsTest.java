package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuekit.Codec;
import io.queuekit.Subscription;
import io.queuekit.micrometer.MicrometerQueueMetrics;
import io.queuekit.redis.pubsub.RedisBroadcaster.GapEvent;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.spi.QueueMetrics;
import io.queuekit.tck.ThrowingMetrics;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.ClientKillParams;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class RedisBroadcasterMetricsTest {

    @Test
    void publishesDeliveriesAndListenerTime_areRecorded(RedisClient client) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        String channel = Channels.unique("metrics");
        try (RedisBroadcaster<String> b = RedisBroadcaster.builder(client, channel, Codec.utf8())
                        .metrics(MicrometerQueueMetrics.of(registry))
                        .build();
                Subscription s = b.subscribe(m -> {
                    if (m.equals("bad")) {
                        throw new IllegalStateException("listener failure");
                    }
                })) {
            b.publish("one");
            b.publishAll(List.of("two", "bad"));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> registry.get("queuekit.delivered")
                                    .tag("queue", channel)
                                    .counter()
                                    .count()
                            == 3);
            assertThat(registry.get("queuekit.sent")
                            .tag("transport", "redis-pubsub")
                            .counter()
                            .count())
                    .isEqualTo(3);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> registry.get("queuekit.handler")
                                    .tag("outcome", "failure")
                                    .timer()
                                    .count()
                            == 1);
            assertThat(registry.get("queuekit.handler")
                            .tag("outcome", "success")
                            .timer()
                            .count())
                    .isEqualTo(2);
        }
    }

    /** An observer must not throw; one that does is logged, and delivery goes on. */
    @Test
    void anObserverThatThrows_stopsNoDelivery(RedisClient client) {
        QueueMetrics throwing = new ThrowingMetrics();
        List<String> got = new CopyOnWriteArrayList<>();
        try (RedisBroadcaster<String> b = RedisBroadcaster.builder(client, Channels.unique("observer"), Codec.utf8())
                        .metrics(throwing)
                        .build();
                RedisSubscription s = b.subscribe(got::add)) {
            assertThat(b.publish("one")).isEqualTo(1);
            assertThat(b.publishAll(List.of("two", "three"))).containsExactly(1, 1);

            await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 3);
            assertThat(got).containsExactly("one", "two", "three");
            assertThat(s.isActive()).isTrue();
            assertThat(s.listenerFailures()).as("the listener never threw").isZero();
        }
    }

    @Test
    void aLostConnection_isRecordedAsAReconnectAndAGapOfItsDuration_andAnUndecodableMessageAsADecodeFailure() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        List<GapEvent> gaps = new CopyOnWriteArrayList<>();
        List<String> got = new CopyOnWriteArrayList<>();
        Codec<String> picky = new PickyCodec();
        // a server of its own: the test disconnects every subscriber of it
        try (RedisServer server = RedisServer.builder().start();
                RedisClient client = RedisClients.create(server);
                RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "events", picky)
                        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200))
                        .onGap(gaps::add)
                        .metrics(MicrometerQueueMetrics.of(registry))
                        .build();
                Jedis admin = new Jedis(server.host(), server.port())) {
            RedisSubscription s = b.subscribe(got::add);
            assertThat(registry.get("queuekit.reconnected")
                            .tag("queue", "events")
                            .counter()
                            .count())
                    .isZero();
            assertThat(registry.get("queuekit.gap")
                            .tag("queue", "events")
                            .timer()
                            .count())
                    .isZero();

            client.publish(b.channelKey(), "bad bytes from someone else");
            b.publish("good");
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("good"));
            assertThat(registry.get("queuekit.decode.failed")
                            .tag("queue", "events")
                            .tag("transport", "redis-pubsub")
                            .tag("namespace", "queuekit")
                            .counter()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.get("queuekit.delivered")
                            .tag("queue", "events")
                            .counter()
                            .count())
                    .isEqualTo(1);

            assertThat(admin.clientKill(ClientKillParams.clientKillParams().type(ClientType.PUBSUB)))
                    .isEqualTo(1);

            await().atMost(Duration.ofSeconds(10)).until(() -> gaps.size() == 1);
            assertThat(registry.get("queuekit.reconnected")
                            .tag("queue", "events")
                            .counter()
                            .count())
                    .isEqualTo(1);
            Timer gap = registry.get("queuekit.gap").tag("queue", "events").timer();
            assertThat(gap.count()).isEqualTo(1);
            assertThat(gap.totalTime(TimeUnit.NANOSECONDS))
                    .as("the gap's duration, as onGap was told it")
                    .isEqualTo((double) gaps.get(0).duration().toNanos())
                    .isPositive();
            assertThat(s.reconnects()).as("the getters count as before").isEqualTo(1);
            assertThat(b.decodeFailures()).isEqualTo(1);
        }
    }
}

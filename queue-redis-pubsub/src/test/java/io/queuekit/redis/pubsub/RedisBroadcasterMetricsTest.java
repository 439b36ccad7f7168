package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuekit.Codec;
import io.queuekit.Subscription;
import io.queuekit.micrometer.MicrometerQueueMetrics;
import io.queuekit.redis.server.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisBroadcasterMetricsTest {

    @Test
    void publishesDeliveriesAndListenerTime_areRecorded() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        String channel = Clients.uniqueChannel("metrics");
        try (RedisClient client = Clients.forServer(RedisServer.shared());
                RedisBroadcaster<String> b = RedisBroadcaster.builder(client, channel, Codec.utf8())
                        .metrics(MicrometerQueueMetrics.of(registry)).build();
                Subscription s = b.subscribe(m -> {
                    if (m.equals("bad")) {
                        throw new IllegalStateException("listener failure");
                    }
                })) {
            b.publish("one");
            b.publishAll(List.of("two", "bad"));
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    registry.get("queuekit.delivered").tag("queue", channel).counter().count() == 3);
            assertThat(registry.get("queuekit.sent").tag("transport", "redis-pubsub").counter().count()).isEqualTo(3);
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    registry.get("queuekit.handler").tag("outcome", "failure").timer().count() == 1);
            assertThat(registry.get("queuekit.handler").tag("outcome", "success").timer().count()).isEqualTo(2);
        }
    }
}

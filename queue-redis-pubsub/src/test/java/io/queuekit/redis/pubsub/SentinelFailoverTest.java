package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.redis.pubsub.RedisBroadcaster.GapEvent;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisSentinelGroup;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisSentinelClient;

/**
 * Subscriptions through a Sentinel client follow the primary. After a crash their connection
 * breaks and they subscribe again on the promoted replica. After a planned failover the old
 * primary lives on as a replica and keeps its subscribers; PUBLISH reaches them there through
 * replication, but the new primary does not count them, so publish() would answer 0 ("no one
 * received it") for messages that were received.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SentinelFailoverTest {

    @Test
    void afterKillPrimary_theSubscriptionReceivesFromThePromotedReplica() {
        try (RedisSentinelGroup group =
                        RedisSentinelGroup.builder().masterName("pubsub-kill").start();
                RedisSentinelClient client = group.client();
                RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "kill", Codec.utf8())
                        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                        .build()) {
            List<String> received = new CopyOnWriteArrayList<>();
            RedisSubscription s = b.subscribe(received::add);
            assertThat(b.publish("before")).isEqualTo(1);

            group.killPrimary();
            group.awaitPrimaryWritable(Duration.ofSeconds(20));

            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> publishQuietly(b, "after") == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> received.contains("after"));
            assertThat(s.reconnects()).isEqualTo(1);
        }
    }

    @Test
    void afterFailover_theSubscriptionMovesToTheNewPrimary_soPublishCountsIt() {
        List<GapEvent> gaps = new CopyOnWriteArrayList<>();
        try (RedisSentinelGroup group = RedisSentinelGroup.builder()
                        .masterName("pubsub-failover")
                        .start();
                RedisSentinelClient client = group.client();
                RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "failover", Codec.utf8())
                        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                        .onGap(gaps::add)
                        .build()) {
            List<String> received = new CopyOnWriteArrayList<>();
            RedisSubscription s = b.subscribe(received::add);
            assertThat(b.publish("before")).isEqualTo(1);

            group.failover();

            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> publishQuietly(b, "after") == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> received.contains("after"));
            assertThat(s.isConnected()).isTrue();
            assertThat(s.reconnects()).isEqualTo(1);
            assertThat(gaps).singleElement().extracting(GapEvent::subscription).isEqualTo(s.name());
        }
    }

    private static long publishQuietly(RedisBroadcaster<String> b, String message) {
        try {
            return b.publish(message);
        } catch (RuntimeException e) {
            return -1; // the pool's connections to the dead primary fail until the client has switched
        }
    }
}

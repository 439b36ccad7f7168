package io.queuekit.redis.stream;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.GroupInfo;
import io.queuekit.Subscription;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ZAddParams;

/**
 * A Redis outage longer than the expiry leaves every beat stale (the server's clock ran on while no
 * beat could be written); the first reclaim pass after it must not take the groups of live
 * subscriptions: every process gets a full expiry to renew. The outage is shown by what it leaves:
 * the beats and the time of the last pass set back by the outage's length.
 */
@Timeout(value = 60, unit = SECONDS)
@RedisServerTest
class HeartbeatOutageTest {
    private static final long OUTAGE_MILLIS = 10_000;
    private static final Duration EXPIRY = Duration.ofSeconds(4);
    private final RedisClient client;

    HeartbeatOutageTest(RedisClient client) {
        this.client = client;
    }

    private RedisStreamTopic<String> topic(String name, Duration interval) {
        RedisStreamTopic<String> t = RedisStreamTopic.builder(client, name, Codec.utf8())
                .blockTimeout(Duration.ofMillis(500))
                .build();
        t.heartbeats.every(interval, EXPIRY);
        return t;
    }

    private String subscriptionGroup(RedisStreamTopic<String> t) {
        return t.groups().stream()
                .filter(GroupInfo::subscription)
                .map(GroupInfo::name)
                .findFirst()
                .orElseThrow();
    }

    /**
     * What an outage of OUTAGE_MILLIS leaves, after a pass ran: {@code group}'s beat and the times
     * the passes recorded, that much older (the server's clock ran on meanwhile).
     */
    private void outage(RedisStreamTopic<String> passer, String name, String group) {
        String subs = "queuekit:{" + name + "}:subs";
        String counts = "queuekit:{" + name + "}:counts";
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    passer.publish("warm");
                    return client.hget(counts, "pass") != null;
                });
        double beat = client.zscore(subs, group);
        client.zadd(subs, beat - OUTAGE_MILLIS, group, ZAddParams.zAddParams().xx());
        for (String field : List.of("pass", "resumed")) {
            String at = client.hget(counts, field);
            if (at != null) {
                client.hset(counts, field, Long.toString(Long.parseLong(at) - OUTAGE_MILLIS));
            }
        }
    }

    @Test
    void aLiveSubscription_keepsItsGroupAfterARedisOutageLongerThanTheExpiry() {
        String name = "outage-" + UUID.randomUUID();
        try (RedisStreamTopic<String> live = topic(name, Duration.ofSeconds(2));
                RedisStreamTopic<String> other = topic(name, Duration.ofMillis(100))) {
            List<String> got = new CopyOnWriteArrayList<>();
            Subscription s = live.subscribe(got::add);
            live.publish("before");
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("before"));
            String group = subscriptionGroup(other);

            outage(other, name, group);
            // back: the first publish of any process, before the live one's next beat (5 s in production)
            other.publish("after");
            assertThat(other.groups()).as("the live subscription's group").anyMatch(GroupInfo::subscription);

            // reclaim passes keep running (a publish every 100 ms) for over an expiry: the live one renewed
            await().during(EXPIRY.plusSeconds(1))
                    .atMost(EXPIRY.plusSeconds(10))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        other.publish("tick");
                        return other.groups().stream().anyMatch(GroupInfo::subscription);
                    });
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("after"));
            assertThat(s.isActive()).isTrue();
        }
    }

    @Test
    void aGroupLeftBehind_isReclaimedAFullExpiryAfterPassesResume() {
        String name = "outage-" + UUID.randomUUID();
        try (RedisStreamTopic<String> dying = topic(name, Duration.ofMillis(100));
                RedisStreamTopic<String> other = topic(name, Duration.ofMillis(100))) {
            dying.subscribe(m -> {});
            String group = subscriptionGroup(other);
            dying.heartbeats.close(); // its beats stop, as when its process dies
            other.publish("first");

            outage(other, name, group);
            long resumed = System.nanoTime();
            other.publish("after");
            assertThat(other.groups()).as("not yet: passes just resumed").anyMatch(GroupInfo::subscription);

            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        other.publish("tick");
                        return other.groups().stream().noneMatch(GroupInfo::subscription);
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - resumed)).isGreaterThanOrEqualTo(EXPIRY);
        }
    }

    @Test
    void aShardThatFails_doesNotStopTheBeatsOnTheOthers() {
        String name = "outage-shards-" + UUID.randomUUID();
        RedisKeys shard0 = RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).shard(0, 2);
        RedisKeys shard1 = RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).shard(1, 2);
        try (RedisStreamTopic<String> t = RedisStreamTopic.builder(client, name, Codec.utf8())
                .shards(2)
                .blockTimeout(Duration.ofMillis(500))
                .build()) {
            t.heartbeats.every(Duration.ofMillis(100), EXPIRY);
            Subscription s = t.subscribe(m -> {});
            String group = subscriptionGroup(t);
            String layout = client.get(shard0.key("layout"));
            try {
                // shard 0 fails every script from now on, as if its master could not be reached
                client.set(shard0.key("layout"), "list");
                double before = client.zscore(shard1.key("subs"), group);

                await().atMost(Duration.ofSeconds(5))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> client.zscore(shard1.key("subs"), group) > before + 200);
            } finally {
                client.set(shard0.key("layout"), layout);
            }
            s.close();
        }
    }
}

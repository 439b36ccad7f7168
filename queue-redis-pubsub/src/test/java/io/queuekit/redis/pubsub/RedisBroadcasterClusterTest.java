package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.redis.pubsub.RedisBroadcaster.GapEvent;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisCluster;
import io.queuekit.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.util.KeyValue;

/**
 * Broadcasts on a Redis Cluster: sharded channels on Redis 7 (SPUBLISH to the master of the
 * channel's slot, so that publish counts every subscription), and what happens when that master
 * dies or the slot moves.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisBroadcasterClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void publish_countsEverySubscription_ofEveryProcess_whicheverNodeItsClientKnowsFirst() throws Exception {
        RedisCluster cluster = RedisCluster.shared();
        String channel = Channels.unique("count");
        List<RedisClusterClient> clients = new ArrayList<>();
        List<RedisBroadcaster<String>> broadcasters = new ArrayList<>();
        try {
            BlockingQueue<String> got = new LinkedBlockingQueue<>();
            for (int i = 0; i < 6; i++) {
                // six "processes", each with its own client and broadcaster
                RedisClusterClient c = cluster.client();
                clients.add(c);
                RedisBroadcaster<String> b =
                        RedisBroadcaster.builder(c, channel, Codec.utf8()).build();
                broadcasters.add(b);
                b.subscribe(m -> got.add(m));
            }
            assumeSharded(cluster);
            for (int i = 0; i < 20; i++) {
                assertThat(broadcasters.get(i % 6).publish("m" + i))
                        .as("receivers of m%d", i)
                        .isEqualTo(6);
            }
            assertThat(broadcasters.get(0).publishAll(List.of("a", "b"))).containsExactly(6, 6);
            await().atMost(WAIT).until(() -> got.size() == 6 * 22);
        } finally {
            broadcasters.forEach(RedisBroadcaster::close);
            clients.forEach(RedisClusterClient::close);
        }
    }

    @Test
    void patterns_needClassicPubSub_andSaySo_whileSharded() {
        RedisCluster cluster = RedisCluster.shared();
        assumeSharded(cluster);
        try (RedisClusterClient client = cluster.client();
                RedisBroadcaster<String> sharded = RedisBroadcaster.builder(
                                client, Channels.unique("pat"), Codec.utf8())
                        .build();
                RedisBroadcaster<String> classic = RedisBroadcaster.builder(
                                client, Channels.unique("pat"), Codec.utf8())
                        .sharded(false)
                        .build()) {
            assertThatThrownBy(() -> sharded.subscribePattern("pat*", (c, m) -> {}))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("sharded pub/sub has no patterns")
                    .hasMessageContaining("sharded(false)");
            BlockingQueue<String> got = new LinkedBlockingQueue<>();
            try (RedisSubscription s = classic.subscribePattern(classic.name(), (c, m) -> got.add(c + "=" + m))) {
                classic.publish("hello");
                await().atMost(WAIT).until(() -> ("" + got.peek()).equals(classic.name() + "=hello"));
            }
        }
    }

    @Test
    void aShardedSubscription_followsItsSlot_toTheReplicaPromotedAfterItsMasterDied() throws Exception {
        try (RedisCluster cluster = RedisCluster.builder()
                        .masters(3)
                        .replicasPerMaster(1)
                        .nodeTimeout(Duration.ofMillis(1000))
                        .start();
                RedisClusterClient client = cluster.client()) {
            assumeSharded(cluster);
            List<GapEvent> gaps = new CopyOnWriteArrayList<>();
            BlockingQueue<String> got = new LinkedBlockingQueue<>();
            // the subscription's client never publishes, so only the subscription itself can find its slot again
            try (RedisBroadcaster<String> s = RedisBroadcaster.builder(client, "failover", Codec.utf8())
                            .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                            .onGap(gaps::add)
                            .build();
                    RedisClusterClient publisher = cluster.client();
                    RedisBroadcaster<String> b = RedisBroadcaster.builder(publisher, "failover", Codec.utf8())
                            .build()) {
                s.subscribe(got::add);
                assertThat(b.publish("before")).isEqualTo(1);
                assertThat(got.poll(10, TimeUnit.SECONDS)).isEqualTo("before");
                RedisServer master = cluster.masterFor(b.channelKey());

                master.kill();

                await().atMost(WAIT).ignoreExceptions().until(() -> b.publish("after") == 1);
                await().atMost(WAIT).until(() -> got.contains("after"));
                assertThat(cluster.masterFor(b.channelKey())).isNotSameAs(master);
                assertThat(gaps).hasSize(1);
            }
        }
    }

    @Test
    void aShardedSubscription_followsItsSlot_movedToAnotherMaster() throws Exception {
        try (RedisCluster cluster = RedisCluster.builder().masters(2).start();
                RedisClusterClient client = cluster.client()) {
            assumeSharded(cluster);
            List<GapEvent> gaps = new CopyOnWriteArrayList<>();
            BlockingQueue<String> got = new LinkedBlockingQueue<>();
            // the subscription's client never publishes, so only the subscription itself can find its slot again
            try (RedisBroadcaster<String> s = RedisBroadcaster.builder(client, "moving", Codec.utf8())
                            .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                            .onGap(gaps::add)
                            .build();
                    RedisClusterClient publisher = cluster.client();
                    RedisBroadcaster<String> b = RedisBroadcaster.builder(publisher, "moving", Codec.utf8())
                            .build()) {
                s.subscribe(got::add);
                assertThat(b.publish("before")).isEqualTo(1);
                int slot = RedisCluster.slotOf(b.channelKey());
                RedisServer from = cluster.masterOf(slot);
                RedisServer to = cluster.masters().stream()
                        .filter(m -> m != from)
                        .findFirst()
                        .orElseThrow();

                cluster.migrateSlot(slot, to);

                await().atMost(WAIT).ignoreExceptions().until(() -> b.publish("after") == 1);
                await().atMost(WAIT).until(() -> got.contains("after"));
                assertThat(got).startsWith("before");
                assertThat(gaps).hasSize(1);
            }
        }
    }

    @Test
    void aClassicChannel_reachesEverySubscription_butCountsOnlyThoseOnTheNodeThatReceivedIt() throws Exception {
        RedisCluster cluster = RedisCluster.shared();
        String channel = Channels.unique("classic");
        List<RedisClusterClient> clients = new ArrayList<>();
        List<RedisBroadcaster<String>> broadcasters = new ArrayList<>();
        try {
            BlockingQueue<String> got = new LinkedBlockingQueue<>();
            for (int i = 0; i < 6; i++) {
                RedisClusterClient c = cluster.client();
                clients.add(c);
                RedisBroadcaster<String> b = RedisBroadcaster.builder(c, channel, Codec.utf8())
                        .sharded(false)
                        .build();
                broadcasters.add(b);
                b.subscribe(m -> got.add(m));
            }
            long counted = 0;
            for (int i = 0; i < 20; i++) {
                long receivers = broadcasters.get(i % 6).publish("m" + i);
                assertThat(receivers).as("receivers of m%d", i).isBetween(0L, 6L);
                counted += receivers;
            }
            await().atMost(WAIT).until(() -> got.size() == 6 * 20);
            assertThat(counted)
                    .as("what the counts add up to: only the receiving node's subscriptions")
                    .isLessThanOrEqualTo(6 * 20);
        } finally {
            broadcasters.forEach(RedisBroadcaster::close);
            clients.forEach(RedisClusterClient::close);
        }
    }

    @Test
    void theMajorVersionInHelloReplies_decidesSharding() {
        byte[] version = "version".getBytes(StandardCharsets.UTF_8);
        assertThat(Sharding.majorVersion(
                        List.of(bytes("server"), bytes("redis"), version, bytes("6.2.14"), bytes("proto"), 2L)))
                .as("RESP2")
                .isEqualTo(6);
        assertThat(Sharding.majorVersion(List.of(
                        new KeyValue<>(bytes("server"), bytes("redis")), new KeyValue<>(version, bytes("7.0.15")))))
                .as("RESP3")
                .isEqualTo(7);
        assertThat(Sharding.majorVersion(List.of(version, bytes("10.0.0")))).isEqualTo(10);
        assertThat(Sharding.majorVersion(List.of(bytes("mode"), version)))
                .as("a value named version")
                .isZero();
        assertThat(Sharding.majorVersion(List.of(bytes("server"), bytes("redis"))))
                .isZero();
        assertThat(Sharding.majorVersion("OK")).isZero();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Sharded pub/sub needs Redis 7: on 6.2 the broadcaster speaks classic pub/sub. */
    private static void assumeSharded(RedisCluster cluster) {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                !cluster.nodes().get(0).version().startsWith("6."),
                "sharded pub/sub needs Redis 7 or later; this cluster runs "
                        + cluster.nodes().get(0).version());
    }
}

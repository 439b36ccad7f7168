package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisCluster;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;

/**
 * Whether a cluster channel is sharded is read from the server without {@code INFO}, which a
 * least-privilege user may not run, and read again on every connection, so that instances started
 * before and after an upgrade from Redis 6.2 to 7 speak the same pub/sub once it is done.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShardedOrClassicTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aUserWithoutInfoRights_publishesAndSubscribes_sharded() throws Exception {
        RedisCluster cluster = RedisCluster.shared();
        assumeRedis7(cluster.nodes().get(0));
        String channel = Channels.unique("acl");
        String user = "pubsub-" + channel;
        // what a sharded broadcaster needs, and no INFO (AUTH and HELLO need no grant)
        String rules = "on >secret resetchannels &queuekit:{" + channel + "} -@all +ping +cluster|slots "
                + "+spublish +ssubscribe +sunsubscribe";
        for (RedisServer node : cluster.nodes()) {
            try (Jedis admin = new Jedis(node.host(), node.port())) {
                admin.aclSetUser(user, rules.split(" "));
                admin.aclLogReset();
            }
        }
        try (RedisClusterClient client =
                        cluster.client(s -> s.configure(c -> c.user(user).password("secret")));
                RedisClusterClient other = cluster.client();
                RedisBroadcaster<String> restricted =
                        RedisBroadcaster.builder(client, channel, Codec.utf8()).build();
                RedisBroadcaster<String> unrestricted =
                        RedisBroadcaster.builder(other, channel, Codec.utf8()).build()) {
            BlockingQueue<String> got = new LinkedBlockingQueue<>();
            restricted.subscribe(got::add);
            unrestricted.subscribe(got::add);

            assertThat(restricted.publish("hello"))
                    .as("sharded: every subscription counted")
                    .isEqualTo(2);
            assertThat(unrestricted.publish("back")).isEqualTo(2);
            await().atMost(WAIT).until(() -> got.size() == 4);
            assertThat(got).containsExactlyInAnyOrder("hello", "hello", "back", "back");
            for (RedisServer node : cluster.nodes()) {
                try (Jedis admin = new Jedis(node.host(), node.port())) {
                    assertThat(admin.aclLog())
                            .as("commands Redis refused to the user on %s", node)
                            .noneMatch(entry -> user.equals(entry.getUsername()));
                }
            }
        } finally {
            for (RedisServer node : cluster.nodes()) {
                try (Jedis admin = new Jedis(node.host(), node.port())) {
                    admin.aclDelUser(user);
                }
            }
        }
    }

    @Test
    void afterAnUpgradeFrom62To7_instancesStartedBeforeAndAfter_receiveEachOthersMessages() throws Exception {
        RedisServer old = singleNodeCluster(RedisServer.builder().source(RedisServer.Source.EMBEDDED), 0);
        RedisServer upgraded = null;
        Set<HostAndPort> address = Set.of(new HostAndPort(old.host(), old.port()));
        try (RedisClusterClient before = clusterClient(old, address);
                RedisBroadcaster<String> a = RedisBroadcaster.builder(before, "upgrade", Codec.utf8())
                        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
                        .build()) {
            assertThat(old.version()).startsWith("6.2");
            BlockingQueue<String> gotA = new LinkedBlockingQueue<>();
            a.subscribe(gotA::add);
            assertThat(a.publish("on 6.2")).isEqualTo(1);
            assertThat(gotA.poll(10, TimeUnit.SECONDS)).isEqualTo("on 6.2");

            // the upgrade: the node comes back on the same address, running Redis 7
            int port = old.port();
            old.close();
            upgraded = singleNodeCluster(RedisServer.builder().source(RedisServer.Source.PATH), port);
            assumeRedis7(upgraded);

            try (RedisClusterClient after = clusterClient(upgraded, address);
                    RedisBroadcaster<String> b = RedisBroadcaster.builder(after, "upgrade", Codec.utf8())
                            .build()) {
                BlockingQueue<String> gotB = new LinkedBlockingQueue<>();
                b.subscribe(gotB::add);
                await().atMost(WAIT).until(() -> a.reconnects() == 1);

                // each instance's publish reaches both subscriptions, as one kind of pub/sub does
                await().atMost(WAIT).ignoreExceptions().until(() -> a.publish("from a") == 2);
                assertThat(b.publish("from b")).isEqualTo(2);
                await().atMost(WAIT).until(() -> gotA.contains("from b") && gotB.contains("from b"));
                assertThat(gotB).contains("from a");
                assertThat(gotA).contains("from a");

                // a publisher asks once per connection, not once per message
                long asked = helloCalls(upgraded);
                for (int i = 0; i < 200; i++) {
                    b.publish("m" + i);
                }
                assertThat(helloCalls(upgraded) - asked)
                        .as("HELLOs for 200 publishes on a pool of 8")
                        .isLessThanOrEqualTo(8);
            }
        } finally {
            old.close();
            if (upgraded != null) {
                upgraded.close();
            }
        }
    }

    /** A cluster of one master serving every slot, on {@code port} (0: a free one). */
    private static RedisServer singleNodeCluster(RedisServer.Builder builder, int port) {
        if (port != 0) {
            builder.port(port);
        }
        RedisServer node = builder.config("cluster-enabled", "yes")
                .config("cluster-config-file", "nodes.conf")
                .start();
        try (Jedis admin = new Jedis(node.host(), node.port())) {
            admin.clusterAddSlots(IntStream.range(0, RedisCluster.SLOTS).toArray());
            await().atMost(WAIT).until(() -> admin.clusterInfo().contains("cluster_state:ok"));
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    private static long helloCalls(RedisServer node) {
        try (Jedis admin = new Jedis(node.host(), node.port())) {
            String stats = admin.info("commandstats");
            int at = stats.indexOf("cmdstat_hello:calls=");
            return at < 0 ? 0 : Long.parseLong(stats.substring(at + 20, stats.indexOf(',', at)));
        }
    }

    private static RedisClusterClient clusterClient(RedisServer node, Set<HostAndPort> address) {
        return RedisClusterClient.builder()
                .nodes(address)
                .clientConfig(RedisClients.builder(node).clientConfig())
                .poolConfig(RedisClients.poolConfig(8))
                .maxTotalRetriesDuration(Duration.ofSeconds(5))
                .build();
    }

    private static void assumeRedis7(RedisServer server) {
        Assumptions.assumeTrue(
                List.of("6.", "5.", "unknown").stream().noneMatch(server.version()::startsWith),
                "sharded pub/sub needs Redis 7 or later; this server runs " + server.version());
    }
}

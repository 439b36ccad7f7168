package io.queuekit.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.redis.internal.JedisClient.Kind;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisCluster;
import io.queuekit.testing.RedisSentinelGroup;
import io.queuekit.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.UnifiedJedis;

/**
 * Each kind of client, made and recognised on the Jedis on the classpath: Jedis 8 in the normal run,
 * Jedis 7.0 in the module's {@code jedis-7.0} run, where the classes are Jedis 7's.
 */
@Timeout(120)
class JedisClientTest {
    /** Whether this Jedis has the client classes of Jedis 8 (7.4 and later do). */
    private static final boolean NEWEST = present("redis.clients.jedis.RedisClient");

    @Test
    void standalone_isTheNewestPooledClient_andLendsItsPool() {
        RedisServer server = RedisServer.shared();
        try (UnifiedJedis client = JedisClient.standalone(
                new HostAndPort(server.host(), server.port()),
                RedisClients.builder(server).clientConfig(),
                RedisClients.poolConfig(2))) {
            JedisClient jedis = JedisClient.of(client);

            assertThat(client.getClass().getSimpleName()).isEqualTo(NEWEST ? "RedisClient" : "JedisPooled");
            assertThat(jedis.kind()).isEqualTo(Kind.STANDALONE);
            try (Connection c = jedis.pool().getResource()) {
                assertThat(c.ping()).isTrue();
            }
            assertThat(OneRoundTrip.of(client)).isNotNull();
        }
    }

    @Test
    void plainUnifiedJedis_isOther_evenOnAPool() {
        try (UnifiedJedis plain = RedisClients.builder(RedisServer.shared()).buildPlain()) {
            assertThat(JedisClient.of(plain).kind()).isEqualTo(Kind.OTHER);
            assertThat(OneRoundTrip.of(plain)).isNull();
        }
    }

    @Test
    void sentinel_followsTheCurrentPrimary_andReachesItsPoolWhereJedisHandsItOut() {
        RedisSentinelGroup group = RedisSentinelGroup.shared();
        JedisClientConfig sentinels = JedisClient.withoutProtocolNegotiation(DefaultJedisClientConfig.builder())
                .connectionTimeoutMillis(1_000)
                .socketTimeoutMillis(1_000)
                .build();
        try (UnifiedJedis client = JedisClient.sentinel(
                group.masterName(),
                group.sentinels(),
                RedisClients.builder(group.primary()).clientConfig(),
                sentinels,
                RedisClients.poolConfig(2))) {
            JedisClient jedis = JedisClient.of(client);

            assertThat(client.getClass().getSimpleName()).isEqualTo(NEWEST ? "RedisSentinelClient" : "JedisSentineled");
            assertThat(jedis.kind()).isEqualTo(Kind.SENTINEL);
            assertThat(jedis.currentPrimary().getPort())
                    .isEqualTo(group.primary().port());
            // Jedis 7.0 does not hand out the primary's pool: Jedis then lends subscriptions their connections
            assertThat(jedis.reachesPrimaryPool()).isEqualTo(NEWEST);
            if (NEWEST) {
                assertThat(jedis.primaryPools()).hasSize(1);
                try (Connection c = jedis.primaryPools().get(0).getResource()) {
                    assertThat(c.ping()).isTrue();
                }
            }
        }
    }

    @Test
    void cluster_knowsItsNodesAndSlots_andPublishesToTheSlotsMaster() {
        RedisCluster cluster = RedisCluster.shared();
        Set<HostAndPort> nodes = cluster.addresses();
        try (UnifiedJedis client = JedisClient.cluster(
                nodes, RedisClients.builder(cluster.nodes().get(0)).clientConfig(), RedisClients.poolConfig(2), 5)) {
            JedisClient jedis = JedisClient.of(client);

            assertThat(client.getClass().getSimpleName()).isEqualTo(NEWEST ? "RedisClusterClient" : "JedisCluster");
            assertThat(jedis.kind()).isEqualTo(Kind.CLUSTER);
            jedis.refreshSlots();
            int slot = RedisCluster.slotOf("{jedis-client}");
            HostAndPort master = jedis.masterOf(slot);
            assertThat(master.getPort()).isEqualTo(cluster.masterOf(slot).port());
            assertThat(jedis.clusterNodes()).containsKey(master.toString());
            try (Connection c = jedis.connectionToSlot(slot)) {
                assertThat(c.ping()).isTrue();
            }
            byte[] channel = "{jedis-client}:news".getBytes(StandardCharsets.UTF_8);
            assertThat(jedis.spublish(channel, channel)).isZero(); // no subscriber, but sent where the slot is
        }
    }

    @Test
    void hasDbIndex_readsThePath() {
        assertThat(JedisClient.hasDbIndex(java.net.URI.create("redis://h:1/2"))).isTrue();
        assertThat(JedisClient.hasDbIndex(java.net.URI.create("redis://h:1/"))).isFalse();
        assertThat(JedisClient.hasDbIndex(java.net.URI.create("redis://h:1"))).isFalse();
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, JedisClientTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}

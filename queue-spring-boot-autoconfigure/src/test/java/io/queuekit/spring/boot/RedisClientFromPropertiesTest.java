package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisCluster;
import io.queuekit.testing.RedisSentinelGroup;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.UnifiedJedis;

/** {@code spring.data.redis.*} reaches the right Jedis client, which the queues then work on. */
@RedisServerTest
@Timeout(120)
class RedisClientFromPropertiesTest {
    private final RedisServer server;

    RedisClientFromPropertiesTest(RedisServer server) {
        this.server = server;
    }

    static class Workers {
        @QueueListener(queue = "orders", concurrency = "40")
        void handle(String order) {}
    }

    /** Sends and receives one message through the context's "orders" queue. */
    private static void roundTrip(AssertableApplicationContext context) throws InterruptedException {
        @SuppressWarnings("unchecked")
        MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
        orders.send("o-1");
        Delivery<String> d = orders.poll(10, TimeUnit.SECONDS);
        assertThat(d).isNotNull();
        assertThat(d.payload()).isEqualTo("o-1");
        assertThat(d.ack()).isTrue();
    }

    @Test
    void hostAndPort_makeAPooledRedisClient_sizedForTheListeners() {
        Contexts.on(server)
                .withBean(Workers.class)
                .withPropertyValues("queuekit.queues.orders.key-prefix=" + Contexts.unique("client"))
                .run(context -> {
                    UnifiedJedis client = context.getBean(UnifiedJedis.class);
                    assertThat(client).isInstanceOf(RedisClient.class);
                    // 40 workers each hold a connection while they wait, and 16 more are for sending
                    assertThat(((RedisClient) client).getPool().getMaxTotal()).isEqualTo(56);
                    assertThat(client.ping()).isEqualTo("PONG");
                });
    }

    @Test
    void aUrlWithADatabase_putsTheQueueInThatDatabase() {
        String prefix = Contexts.unique("db");
        Contexts.on(server)
                .withPropertyValues(
                        "spring.data.redis.url=" + server.uri() + "/3", "queuekit.queues.orders.key-prefix=" + prefix)
                .run(context -> {
                    @SuppressWarnings("unchecked")
                    MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
                    orders.send("o-1");
                    try (RedisClient db3 =
                                    RedisClients.builder(server.uri() + "/3").build();
                            RedisClient db0 = RedisClients.create(server)) {
                        assertThat(db3.keys(prefix + ":*")).isNotEmpty();
                        assertThat(db0.keys(prefix + ":*")).isEmpty();
                    }
                });
    }

    @Test
    void aUrlWhoseUserInfoHasNoColon_givesThePassword() {
        try (RedisServer secured =
                RedisServer.builder().config("requirepass", "s3cret").start()) {
            Contexts.on(server)
                    .withPropertyValues(
                            "spring.data.redis.url=redis://s3cret@127.0.0.1:" + secured.port(),
                            "queuekit.queues.orders.key-prefix=" + Contexts.unique("password"))
                    .run(RedisClientFromPropertiesTest::roundTrip);
        }
    }

    @Test
    void connectionDetails_winOverTheProperties() {
        try (RedisServer secured =
                RedisServer.builder().config("requirepass", "s3cret").start()) {
            DataRedisConnectionDetails details = new DataRedisConnectionDetails() {
                @Override
                public String getPassword() {
                    return "s3cret";
                }

                @Override
                public Standalone getStandalone() {
                    return Standalone.of(secured.host(), secured.port(), 2);
                }
            };
            String prefix = Contexts.unique("details");
            Contexts.on(server) // spring.data.redis.* name the shared server, without a password
                    .withBean(DataRedisConnectionDetails.class, () -> details)
                    .withPropertyValues("queuekit.queues.orders.key-prefix=" + prefix)
                    .run(context -> {
                        roundTrip(context);
                        @SuppressWarnings("unchecked")
                        MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
                        orders.send("o-2"); // left in the queue, so its keys stay
                        try (RedisClient db2 =
                                RedisClients.builder(secured.uri() + "/2").build()) {
                            assertThat(db2.keys(prefix + ":*")).isNotEmpty();
                        }
                    });
        }
    }

    @Test
    void anApplicationsOwnClient_isKept() {
        try (RedisClient own = RedisClients.create(server)) {
            Contexts.on(server)
                    .withBean("myRedis", UnifiedJedis.class, () -> own)
                    .withPropertyValues("queuekit.queues.orders.key-prefix=" + Contexts.unique("own"))
                    .run(context -> {
                        assertThat(context.getBeansOfType(UnifiedJedis.class)).containsOnlyKeys("myRedis");
                        roundTrip(context);
                    });
        }
    }

    @Test
    void sentinelProperties_makeASentinelClient() {
        try (RedisSentinelGroup group =
                RedisSentinelGroup.builder().masterName("orders-primary").start()) {
            String sentinels = group.sentinels().stream()
                    .map(h -> h.getHost() + ":" + h.getPort())
                    .collect(Collectors.joining(","));
            Contexts.on(server)
                    .withPropertyValues(
                            "spring.data.redis.sentinel.master=orders-primary",
                            "spring.data.redis.sentinel.nodes=" + sentinels,
                            "queuekit.queues.orders.type=list")
                    .run(context -> {
                        assertThat(context.getBean(UnifiedJedis.class)).isInstanceOf(RedisSentinelClient.class);
                        roundTrip(context);
                        assertThat(context.getBean(QueuesHealthIndicator.class)
                                        .health(true)
                                        .getStatus())
                                .isEqualTo(Status.UP);
                    });
        }
    }

    @Test
    void clusterProperties_makeAClusterClient() {
        RedisCluster cluster = RedisCluster.shared();
        String nodes = cluster.addresses().stream()
                .map(h -> h.getHost() + ":" + h.getPort())
                .collect(Collectors.joining(","));
        Contexts.on(server)
                .withPropertyValues(
                        "spring.data.redis.cluster.nodes=" + nodes,
                        "queuekit.queues.orders.key-prefix=" + Contexts.unique("cluster"))
                .run(context -> {
                    assertThat(context.getBean(UnifiedJedis.class)).isInstanceOf(RedisClusterClient.class);
                    roundTrip(context);
                    assertThat(context.getBean(QueuesHealthIndicator.class)
                                    .health(true)
                                    .getStatus())
                            .isEqualTo(Status.UP);
                });
    }

    @Test
    void aNodeThatIsNotHostAndPort_failsNamingTheProperty() {
        Contexts.on(server)
                .withPropertyValues("spring.data.redis.cluster.nodes=localhost", "queuekit.queues.orders.type=list")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .hasStackTraceContaining(
                                    "spring.data.redis.cluster.nodes has 'localhost', which is not host:port");
                });
    }
}

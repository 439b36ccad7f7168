package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.UnifiedJedis;

/**
 * The clients carry the settings docs/reliability-and-security.md recommends, and each override reaches
 * the connection.
 */
@Timeout(60)
class RedisClientsTest {
    private static RedisServer server;

    @BeforeAll
    static void start() {
        server = RedisServer.builder().config("requirepass", "s3cret").start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void defaults_boundEveryWait_includingBlockingReads() {
        JedisClientConfig config = RedisClients.builder(server).clientConfig();

        assertThat(config.getConnectionTimeoutMillis()).isEqualTo(1_000);
        assertThat(config.getSocketTimeoutMillis()).isEqualTo(1_000);
        assertThat(config.getBlockingSocketTimeoutMillis())
                .as("above the queues' default block timeout of 1 s; Jedis' default 0 waits forever")
                .isEqualTo(2_500);
        ConnectionPoolConfig pool = RedisClients.poolConfig(RedisClients.POOL_SIZE);
        assertThat(pool.getMaxTotal()).isEqualTo(32);
        assertThat(pool.getMaxWaitDuration()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void create_connectsWithThePasswordFromTheServersUri_andTheDefaultPoolAndTimeouts() {
        try (RedisClient client = RedisClients.create(server)) {
            assertThat(client.ping()).isEqualTo("PONG");
            assertThat(client.getPool().getMaxTotal()).isEqualTo(RedisClients.POOL_SIZE);
            try (Connection c = client.getPool().getResource()) {
                assertThat(c.getSoTimeout()).isEqualTo(1_000);
            }
        }
    }

    @Test
    void builder_appliesProtocolPoolAndTimeouts() {
        try (RedisClient client = RedisClients.builder(server)
                .protocol(RedisProtocol.RESP2)
                .timeouts(Duration.ofMillis(700))
                .poolSize(3)
                .build()) {
            assertThat(client.getPool().getMaxTotal()).isEqualTo(3);
            try (Connection c = client.getPool().getResource()) {
                assertThat(c.getSoTimeout()).isEqualTo(700);
                assertThat(new Jedis(c).clientInfo()).contains("resp=2");
            }
        }
        JedisClientConfig config = RedisClients.builder(server)
                .timeouts(Duration.ofMillis(700))
                .blockingSocketTimeout(Duration.ZERO)
                .clientConfig();
        assertThat(config.getConnectionTimeoutMillis()).isEqualTo(700);
        assertThat(config.getBlockingSocketTimeoutMillis()).isZero();
        assertThat(RedisClients.builder(server)
                        .protocol(RedisProtocol.RESP2)
                        .clientConfig()
                        .getRedisProtocol())
                .isEqualTo(RedisProtocol.RESP2);
        assertThat(RedisClients.builder(server).clientConfig().getRedisProtocol())
                .as("negotiated")
                .isNull();
    }

    @Test
    void pool_isUsedAsGiven() {
        ConnectionPoolConfig one = new ConnectionPoolConfig();
        one.setMaxTotal(1);
        try (RedisClient client = RedisClients.builder(server).pool(one).build()) {
            assertThat(client.getPool().getMaxTotal()).isEqualTo(1);
            assertThat(client.getPool().getMaxWaitDuration())
                    .as("the pool's own default: forever")
                    .isNegative();
        }
    }

    @Test
    void buildPlain_isAUnifiedJedisOfNoClientClass_withTheSameSettings() {
        try (UnifiedJedis plain = RedisClients.builder(server).buildPlain()) {
            assertThat(plain.getClass()).isEqualTo(UnifiedJedis.class);
            assertThat(plain.ping()).isEqualTo("PONG");
        }
    }

    @Test
    void configure_runsAfterTheDefaults_soATestCanConnectAsAnotherUser() {
        try (RedisClient wrong =
                RedisClients.builder(server).configure(c -> c.password("wrong")).build()) {
            assertThatThrownBy(wrong::ping).hasMessageContaining("WRONGPASS");
        }
    }

    @Test
    void address_connectsElsewhere_withTheCredentialsAndDatabaseOfTheUri() {
        String nowhere = "redis://:s3cret@127.0.0.1:1/3";
        try (RedisClient db3 = RedisClients.builder(nowhere)
                        .address(server.host(), server.port())
                        .build();
                RedisClient db0 = RedisClients.create(server)) {
            db3.set("where", "db3");
            assertThat(db3.get("where")).isEqualTo("db3");
            assertThat(db0.get("where"))
                    .as("written to the database the URI names")
                    .isNull();
        }
    }

    @Test
    void badSettings_areRefusedSayingWhatIsWrong() {
        RedisClients.Builder b = RedisClients.builder(server);
        assertThatThrownBy(() -> b.socketTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("socket timeout must be positive: PT0S");
        assertThatThrownBy(() -> b.blockingSocketTimeout(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> b.poolSize(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pool size must be at least 1: 0");
        assertThatThrownBy(() -> RedisClients.builder("localhost:6379"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("localhost:6379");
        assertThatThrownBy(() -> b.protocol(null)).isInstanceOf(NullPointerException.class);
    }
}

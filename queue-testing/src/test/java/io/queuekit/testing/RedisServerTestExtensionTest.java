package io.queuekit.testing;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@link RedisServerTest} run on sample classes through the JUnit engine, so that what happens after their
 * last test (closing) can be checked too.
 */
@Timeout(120)
class RedisServerTestExtensionTest {
    static final List<RedisServer> servers = new CopyOnWriteArrayList<>();
    static final List<RedisClient> clients = new CopyOnWriteArrayList<>();

    @BeforeEach
    void forget() {
        servers.clear();
        clients.clear();
    }

    @Test
    void shared_givesTheJvmsServer_andOneClient_toTheClassAndItsNestedClasses_closedAfterTheClass() {
        run(SharedSample.class).assertStatistics(s -> s.started(3).succeeded(3));

        assertThat(servers).hasSize(4).allSatisfy(s -> assertThat(s).isSameAs(RedisServer.shared()));
        assertThat(clients).hasSize(4).containsOnly(clients.get(0));
        assertThat(clients.get(0).getPool().isClosed()).isTrue();
        assertThat(RedisServer.shared().isRunning())
                .as("the shared server outlives the class")
                .isTrue();
    }

    @Test
    void perClass_startsAServerOfItsOwnForEachRun_andClosesItAfterTheLastTest() {
        run(PerClassSample.class).assertStatistics(s -> s.started(2).succeeded(2));
        run(PerClassSample.class).assertStatistics(s -> s.started(2).succeeded(2));

        assertThat(servers).hasSize(4).doesNotContain(RedisServer.shared());
        assertThat(servers.get(0)).isSameAs(servers.get(1));
        assertThat(servers.get(2)).isSameAs(servers.get(3)).isNotSameAs(servers.get(0));
        assertThat(servers).allSatisfy(s -> {
            assertThat(s.supportsProcessControl()).isTrue();
            assertThat(s.isRunning()).isFalse();
        });
        assertThat(clients)
                .hasSize(2)
                .allSatisfy(c -> assertThat(c.getPool().isClosed()).isTrue());
    }

    @Test
    void aPerClassInstance_getsItsClientInItsConstructor_beforeAnyBeforeAll() {
        run(PerClassLifecycleSample.class).assertStatistics(s -> s.started(2).succeeded(2));

        assertThat(clients).hasSize(1);
        assertThat(clients.get(0).getPool().isClosed()).isTrue();
    }

    @Test
    void askingOnlyForTheServer_opensNoClient() {
        run(ServerOnlySample.class).assertStatistics(s -> s.started(1).succeeded(1));

        assertThat(servers).hasSize(1);
        assertThat(servers.get(0).isRunning()).isFalse();
    }

    @Test
    void aUnifiedJedisParameter_getsTheSameClient_asARedisClientOne() {
        run(UnifiedSample.class).assertStatistics(s -> s.started(1).succeeded(1));

        assertThat(clients).hasSize(2).containsOnly(clients.get(0));
    }

    private static Events run(Class<?> sample) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(sample))
                .execute()
                .testEvents();
    }

    @RedisServerTest
    static class SharedSample {
        SharedSample(RedisClient client, RedisServer server) {
            clients.add(client);
            servers.add(server);
        }

        @BeforeAll
        static void beforeAll(RedisClient client, RedisServer server) {
            clients.add(client);
            servers.add(server);
        }

        @Test
        void clientWorks(RedisClient client) {
            assertThat(client.ping()).isEqualTo("PONG");
        }

        @Nested
        class Inner {
            @Test
            void one() {}

            @Test
            void two() {}
        }
    }

    @RedisServerTest(server = PER_CLASS)
    static class PerClassSample {
        @Test
        void writes(RedisServer server, RedisClient client) {
            servers.add(server);
            clients.add(client);
            client.set("k", "v");
        }

        @Test
        void hasTheServerToItself(RedisServer server, RedisClient client) {
            servers.add(server);
            assertThat(client.dbSize()).isLessThanOrEqualTo(1);
        }
    }

    @RedisServerTest
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    static class PerClassLifecycleSample {
        private final RedisClient client;

        PerClassLifecycleSample(RedisClient client) {
            this.client = client;
            clients.add(client);
        }

        @Test
        void first() {
            assertThat(client.ping()).isEqualTo("PONG");
        }

        @Test
        void second() {
            assertThat(client.ping()).isEqualTo("PONG");
        }
    }

    /** As a test on Jedis 7.0, which has no RedisClient, takes its client. */
    @RedisServerTest
    static class UnifiedSample {
        @Test
        void bothTypes(UnifiedJedis unified, RedisClient client) {
            clients.add((RedisClient) unified);
            clients.add(client);
            assertThat(unified.ping()).isEqualTo("PONG");
        }
    }

    @RedisServerTest(server = PER_CLASS)
    static class ServerOnlySample {
        @Test
        void serverOnly(RedisServer server) {
            servers.add(server);
            try (Jedis own = Connections.connect(server)) {
                assertThat(own.clientList().lines())
                        .as("no connection but this one")
                        .hasSize(1);
            }
        }
    }
}

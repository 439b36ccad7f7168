package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisSentinelClient;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RedisSentinelGroupTest {

    @Test
    void shared_formsAPrimaryWithAReplica_andWritesReachTheReplica() {
        RedisSentinelGroup group = RedisSentinelGroup.shared();
        assertThat(group.masterName()).isEqualTo("queuekit");
        assertThat(group.sentinels()).hasSize(3);
        assertThat(group.primary()).isNotSameAs(group.replica());
        try (RedisSentinelClient client = group.client();
                Jedis replica = Connections.connect(group.replica())) {
            assertThat(client.getCurrentMaster().getPort())
                    .isEqualTo(group.primary().port());
            client.set("sentinel-shared-k", "v");
            await().atMost(Duration.ofSeconds(10)).until(() -> "v".equals(replica.get("sentinel-shared-k")));
            assertThat(replica.info("replication")).contains("role:slave");
        }
        group.close(); // the shared group ignores it
        assertThat(group.primary().isRunning()).isTrue();
    }

    @Test
    void killPrimary_promotesTheReplica_andTheClientKeepsWorking() {
        try (RedisSentinelGroup group =
                        RedisSentinelGroup.builder().masterName("kill-test").start();
                RedisSentinelClient client = group.client()) {
            RedisServer replica = group.replica();
            client.set("k", "before");
            try (Jedis r = Connections.connect(replica)) {
                await().atMost(Duration.ofSeconds(10)).until(() -> "before".equals(r.get("k")));
            }

            RedisServer killed = group.killPrimary();

            assertThat(killed.isRunning()).isFalse();
            group.awaitPrimaryWritable(Duration.ofSeconds(20));
            assertThat(group.primary()).isSameAs(replica);
            assertThat(group.replica()).isSameAs(killed);
            await().atMost(Duration.ofSeconds(20))
                    .ignoreExceptions()
                    .until(() -> "OK".equals(client.set("k", "after")));
            assertThat(client.get("k")).isEqualTo("after");
            assertThat(client.getCurrentMaster().getPort()).isEqualTo(replica.port());
        }
    }

    @Test
    void failover_swapsPrimaryAndReplica_andCloseStopsEveryProcess() {
        List<ProcessHandle> processes = new ArrayList<>();
        List<Path> directories = new ArrayList<>();
        try (RedisSentinelGroup group = RedisSentinelGroup.builder().start();
                RedisSentinelClient client = group.client()) {
            RedisServer before = group.primary();
            RedisServer replica = group.replica();

            assertThat(group.failover()).isSameAs(replica);

            assertThat(group.primary()).isSameAs(replica);
            assertThat(group.replica()).isSameAs(before);
            try (Jedis old = Connections.connect(before)) {
                assertThat(old.info("replication")).contains("role:slave", "master_port:" + replica.port());
            }
            await().atMost(Duration.ofSeconds(20))
                    .ignoreExceptions()
                    .until(() -> "OK".equals(client.set("k", "on the new primary")));
            try (Jedis promoted = Connections.connect(replica)) {
                assertThat(promoted.get("k")).isEqualTo("on the new primary");
            }
            for (RedisServer server : concat(group.nodes(), group.sentinelServers())) {
                processes.add(Connections.local(server).processHandle().orElseThrow());
                directories.add(server.dataDirectory().orElseThrow());
            }
        }
        assertThat(processes).hasSize(5).noneMatch(ProcessHandle::isAlive);
        assertThat(directories).noneMatch(dir -> dir.toFile().exists());
    }

    @Test
    void builder_refusesWhatCannotFormAGroup() {
        assertThatThrownBy(() -> RedisSentinelGroup.builder().masterName("my master"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("master name must be letters, digits, '.', '_' or '-': 'my master'");
        assertThatThrownBy(() -> RedisSentinelGroup.builder().downAfter(Duration.ofMillis(5)))
                .hasMessageContaining("down-after must be at least 100 ms: PT0.005S");
        assertThatThrownBy(() -> RedisSentinelGroup.builder().failoverTimeout(Duration.ZERO))
                .hasMessageContaining("failover timeout must be at least 100 ms");
        assertThatThrownBy(() -> RedisSentinelGroup.builder().timeout(Duration.ofSeconds(-1)))
                .hasMessageContaining("timeout must be positive");
        assertThatThrownBy(() -> RedisSentinelGroup.builder().masterName(null))
                .isInstanceOf(NullPointerException.class);
    }

    private static List<RedisServer> concat(List<RedisServer> a, List<RedisServer> b) {
        List<RedisServer> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}

package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClusterClient;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RedisClusterTest {

    @Test
    void shared_spreadsKeysOverThreeMasters_andServesEachFromItsSlot() {
        RedisCluster cluster = RedisCluster.shared();
        assertThat(cluster.masters()).hasSize(3);
        try (RedisClusterClient client = cluster.client()) {
            for (int i = 0; i < 30; i++) {
                client.set("spread-" + i, "v" + i);
            }
            assertThat(client.get("spread-7")).isEqualTo("v7");
            assertThat(java.util.stream.IntStream.range(0, 30)
                            .mapToObj(i -> cluster.masterFor("spread-" + i))
                            .distinct())
                    .hasSize(3);
        }
        cluster.close(); // the shared cluster ignores it
        assertThat(cluster.masters()).hasSize(3);
    }

    @Test
    void killingAMaster_promotesItsReplica_andTheClientWritesAgain() {
        try (RedisCluster cluster = RedisCluster.builder()
                        .masters(3)
                        .replicasPerMaster(1)
                        .nodeTimeout(Duration.ofMillis(1000))
                        .start();
                RedisClusterClient client = cluster.client()) {
            assertThat(cluster.nodes()).hasSize(6);
            client.set("{failover}k", "before");
            RedisServer owner = cluster.masterFor("{failover}k");

            owner.kill();

            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .until(() -> cluster.masterFor("{failover}k") != owner);
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .until(() -> "OK".equals(client.set("{failover}k", "after")));
            assertThat(client.get("{failover}k")).isEqualTo("after");
            assertThat(cluster.masters()).hasSize(3).doesNotContain(owner);

            owner.restart(); // rejoins as a replica of the promoted node
            cluster.awaitHealthy(Duration.ofSeconds(30));
            assertThat(cluster.masters()).hasSize(3).doesNotContain(owner);
        }
    }

    @Test
    void migrateSlot_movesItsKeys_andTheClientFollows() {
        try (RedisCluster cluster = RedisCluster.builder().masters(2).start();
                RedisClusterClient client = cluster.client()) {
            for (int i = 0; i < 250; i++) {
                client.set("{moving}" + i, "v" + i);
            }
            int slot = RedisCluster.slotOf("{moving}");
            RedisServer from = cluster.masterOf(slot);
            RedisServer to = cluster.masters().stream()
                    .filter(m -> m != from)
                    .findFirst()
                    .orElseThrow();

            cluster.migrateSlot(slot, to);

            assertThat(cluster.masterOf(slot)).isSameAs(to);
            assertThat(client.get("{moving}249")).isEqualTo("v249");
            assertThat(client.get("{moving}0")).isEqualTo("v0");
        }
    }

    @Test
    void builder_refusesWhatCannotFormACluster() {
        assertThatThrownBy(() -> RedisCluster.builder().masters(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("masters must be in 1..16: 0");
        assertThatThrownBy(() -> RedisCluster.builder().replicasPerMaster(-1))
                .hasMessageContaining("replicas per master");
        assertThatThrownBy(() -> RedisCluster.builder().nodeTimeout(Duration.ofMillis(5)))
                .hasMessageContaining("at least 100 ms");
        assertThatThrownBy(() -> RedisCluster.slotOf(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> RedisCluster.shared().masterOf(16384)).hasMessageContaining("0..16383");
    }
}

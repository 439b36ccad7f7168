package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.MessageQueue;
import io.queuekit.testing.LogCapture;
import io.queuekit.testing.RedisCluster;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClusterClient;

/**
 * A queue on a real Redis Cluster, 20,000 messages with four consumers, while the master that
 * holds it is SIGKILLed and its replica promoted (the old master then restarted, to rejoin as the
 * new master's replica), or while its slot is migrated to another master as
 * {@code redis-cli --cluster reshard} does. With {@code replicas(1, ...)} nothing whose
 * send returned is lost to the failover; a migration loses nothing either way; the consumers and
 * the producer carry on by themselves; no script fails with CROSSSLOT.
 */
class ClusterFailoverTest {
    private static final int MESSAGES = 20_000;
    private static final Duration LATER = Duration.ofMillis(1500);
    private static final ConsumeOptions FOUR = ConsumeOptions.builder()
            .concurrency(4)
            .batchSize(20)
            .pollTimeout(Duration.ofMillis(500))
            .build();

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = Transport.class,
            names = {"LIST_AT_LEAST_ONCE", "ZSET"})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void theQueuesMasterSigkilled_midRun_losesNothingThatReplicasAcknowledged(Transport transport) throws Exception {
        try (RedisCluster cluster = RedisCluster.builder()
                        .masters(3)
                        .replicasPerMaster(1)
                        .nodeTimeout(Duration.ofMillis(1000))
                        .start();
                RedisClusterClient client = cluster.client();
                LogCapture log = new LogCapture();
                MessageQueue<String> q = transport.build(
                        client,
                        "failover",
                        Codec.utf8(),
                        b -> b.visibilityTimeout(Duration.ofSeconds(2))
                                .blockTimeout(Duration.ofMillis(500))
                                .maxAttempts(1000)
                                .replicas(1, Duration.ofMillis(500)));
                Traffic traffic = Traffic.start(q, MESSAGES, 50, LATER, FOUR)) {
            traffic.awaitAcknowledged(MESSAGES / 4, Duration.ofSeconds(60));
            int before = traffic.acknowledged.size();
            RedisServer master = cluster.masterFor("queuekit:{failover}");

            long killed = System.nanoTime();
            master.kill();
            // the promoted replica has no replica of its own until the old master is back as one:
            // until then every send waits for a replica in vain and throws
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .until(() -> cluster.masterFor("queuekit:{failover}") != master);
            master.restart();

            assertThat(traffic.awaitProducer(Duration.ofSeconds(90)))
                    .as("producer finished")
                    .isTrue();
            boolean all = traffic.awaitEveryAcknowledgedReceived(Duration.ofSeconds(40));
            System.out.printf(
                    "%s cluster, master SIGKILLed after %d acknowledged sends: sends failed for %d ms; %s%n",
                    transport, before, traffic.sendsFailedForMillis(killed), traffic.summary());
            assertThat(traffic.producerCrashes).as("what ended the producer").isEmpty();
            assertThat(traffic.gaveUp).as("batches the producer gave up on").isEmpty();
            assertThat(traffic.acknowledged).hasSize(MESSAGES);
            assertThat(traffic.lost()).as("acknowledged sends never delivered").isEmpty();
            assertThat(all).isTrue();
            assertThat(log.records("CROSSSLOT")).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = Transport.class,
            names = {"LIST_AT_LEAST_ONCE", "ZSET"})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void theQueuesSlotMigrated_midRun_losesNothing_andNoConsumerSticks(Transport transport) throws Exception {
        try (RedisCluster cluster = RedisCluster.builder().masters(2).start();
                RedisClusterClient client = cluster.client();
                LogCapture log = new LogCapture();
                MessageQueue<String> q = transport.build(
                        client,
                        "moving",
                        Codec.utf8(),
                        b -> b.visibilityTimeout(Duration.ofSeconds(2))
                                .blockTimeout(Duration.ofMillis(500))
                                .maxAttempts(1000));
                Traffic traffic = Traffic.start(q, MESSAGES, 50, LATER, FOUR)) {
            traffic.awaitAcknowledged(MESSAGES / 4, Duration.ofSeconds(60));
            int slot = RedisCluster.slotOf("queuekit:{moving}");
            RedisServer from = cluster.masterOf(slot);
            RedisServer to = cluster.masters().stream()
                    .filter(m -> m != from)
                    .findFirst()
                    .orElseThrow();

            long moved = System.nanoTime();
            cluster.migrateSlot(slot, to);
            long migrationMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - moved);

            assertThat(traffic.awaitProducer(Duration.ofSeconds(90)))
                    .as("producer finished")
                    .isTrue();
            boolean all = traffic.awaitEveryAcknowledgedReceived(Duration.ofSeconds(40));
            System.out.printf(
                    "%s cluster, slot migrated in %d ms mid-run: sends failed for %d ms; %s%n",
                    transport, migrationMillis, traffic.sendsFailedForMillis(moved), traffic.summary());
            assertThat(cluster.masterOf(slot)).isSameAs(to);
            assertThat(traffic.producerCrashes).as("what ended the producer").isEmpty();
            assertThat(traffic.gaveUp).as("batches the producer gave up on").isEmpty();
            assertThat(traffic.acknowledged).hasSize(MESSAGES);
            assertThat(traffic.lost()).as("acknowledged sends never delivered").isEmpty();
            assertThat(all).isTrue();
            assertThat(traffic.sendErrors)
                    .noneMatch(e -> String.valueOf(e.getMessage()).contains("CROSSSLOT"));
            assertThat(log.records("CROSSSLOT")).isEmpty();
        }
    }
}

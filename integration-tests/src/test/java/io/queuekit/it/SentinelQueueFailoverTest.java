package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.MessageQueue;
import io.queuekit.testing.RedisSentinelGroup;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.RedisSentinelClient;

/**
 * 20,000 messages through a queue behind Sentinel, four consumers, while the primary is SIGKILLed
 * and the Sentinels promote its replica: producer and consumers carry on by themselves. Printed:
 * acknowledged sends lost, duplicates, and how long sends failed. With {@code replicas(1, ...)}
 * nothing whose send returned is lost; the killed primary is restarted so that the promoted one has
 * a replica again (without one, every waited write throws). Without the option the asynchronous
 * replication may lose the last acknowledged writes, which the test reports and allows.
 */
class SentinelQueueFailoverTest {
    private static final int MESSAGES = 20_000;
    private static final ConsumeOptions FOUR = ConsumeOptions.builder()
            .concurrency(4)
            .batchSize(20)
            .pollTimeout(Duration.ofMillis(500))
            .build();

    @ParameterizedTest(name = "{0}, replicas {1}")
    @CsvSource({"LIST_AT_LEAST_ONCE, 1", "ZSET, 1", "LIST_AT_LEAST_ONCE, 0", "ZSET, 0"})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void primarySigkilled_midRun_producersAndConsumersCarryOn(Transport transport, int replicas) throws Exception {
        try (RedisSentinelGroup group =
                        RedisSentinelGroup.builder().masterName("failover").start();
                RedisSentinelClient client = group.client();
                MessageQueue<String> q = transport.build(
                        client,
                        "failover",
                        Codec.utf8(),
                        b -> b.visibilityTimeout(Duration.ofSeconds(2))
                                .blockTimeout(Duration.ofMillis(500))
                                .maxAttempts(1000)
                                .replicas(replicas, Duration.ofMillis(500)));
                Traffic traffic = Traffic.start(q, MESSAGES, 50, Duration.ofMillis(1500), FOUR)) {
            traffic.awaitAcknowledged(MESSAGES / 4, Duration.ofSeconds(60));
            int before = traffic.acknowledged.size();

            long killed = System.nanoTime();
            RedisServer old = group.killPrimary();
            group.awaitPrimaryWritable(Duration.ofSeconds(30));
            long promoted = System.nanoTime();
            long promotedMillis = TimeUnit.NANOSECONDS.toMillis(promoted - killed);
            if (replicas > 0) {
                old.restart(); // the Sentinels make it the new primary's replica
            }

            assertThat(traffic.awaitProducer(Duration.ofSeconds(90)))
                    .as("producer finished")
                    .isTrue();
            boolean all = traffic.awaitEveryAcknowledgedReceived(Duration.ofSeconds(replicas > 0 ? 40 : 10));
            System.out.printf(
                    "%s behind Sentinel, replicas(%d): primary SIGKILLed after %d acknowledged sends, "
                            + "replica promoted after %d ms, sends failed for %d ms; %s%n",
                    transport,
                    replicas,
                    before,
                    promotedMillis,
                    traffic.sendsFailedForMillis(killed),
                    traffic.summary());
            assertThat(traffic.producerCrashes).as("what ended the producer").isEmpty();
            assertThat(traffic.gaveUp).as("batches the producer gave up on").isEmpty();
            assertThat(traffic.acknowledged).hasSize(MESSAGES);
            if (replicas > 0) {
                assertThat(traffic.lost())
                        .as("acknowledged sends never delivered")
                        .isEmpty();
                assertThat(all).isTrue();
            } else {
                // only what the old primary acknowledged can be lost; everything since was delivered
                assertThat(traffic.lostAfter(promoted))
                        .as("acknowledged by the promoted replica, never delivered")
                        .isEmpty();
            }
        }
    }
}

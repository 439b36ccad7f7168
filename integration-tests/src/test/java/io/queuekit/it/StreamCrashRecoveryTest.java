package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.ConsumerGroup;
import io.queuekit.GroupInfo;
import io.queuekit.Subscription;
import io.queuekit.TransportException;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * A stream topic's Redis is SIGKILLed in the middle of a run of 10,000 messages published to two
 * groups, each with two consumers, and restarted from its append-only file (appendfsync always).
 * Every message whose publish returned reaches both groups; the consumers resume without help.
 */
class StreamCrashRecoveryTest {
    private static final int MESSAGES = 10_000;
    private static final int BATCH = 50;
    private static final Duration OUTAGE = Duration.ofSeconds(1);

    @Test
    @Timeout(value = 100, unit = TimeUnit.SECONDS)
    void sigkillMidRun_everyAcknowledgedPublishReachesEveryGroup_andConsumersResumeOnTheirOwn() throws Exception {
        try (RedisServer server = RedisServer.builder()
                        .appendOnly(true)
                        .requireProcessControl()
                        .start();
                RedisClient client = RedisClients.builder(server).poolSize(16).build();
                RedisStreamTopic<String> topic = RedisStreamTopic.builder(client, "crash", Codec.utf8())
                        .visibilityTimeout(Duration.ofSeconds(2))
                        .blockTimeout(Duration.ofMillis(500))
                        .maxAttempts(1000)
                        .build()) {
            List<Map<String, AtomicInteger>> received = new ArrayList<>();
            List<Subscription> consumers = new ArrayList<>();
            AtomicLong lastDeliveryNanos = new AtomicLong();
            List<ConsumerGroup<String>> groups = List.of(topic.group("billing"), topic.group("shipping"));
            for (ConsumerGroup<String> g : groups) {
                Map<String, AtomicInteger> byPayload = new ConcurrentHashMap<>();
                received.add(byPayload);
                consumers.add(g.consume(
                        d -> {
                            lastDeliveryNanos.set(System.nanoTime());
                            byPayload
                                    .computeIfAbsent(d.payload(), k -> new AtomicInteger())
                                    .incrementAndGet();
                        },
                        ConsumeOptions.builder()
                                .concurrency(2)
                                .batchSize(20)
                                .pollTimeout(Duration.ofMillis(500))
                                .build()));
            }

            Producer producer = new Producer(topic);
            Thread producing = new Thread(producer, "crash-producer");
            producing.setDaemon(true);
            producing.start();

            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> producer.acknowledged.size() >= MESSAGES / 4
                            && !received.get(0).isEmpty());
            int ackedBeforeKill = producer.acknowledged.size();
            server.kill();
            Thread.sleep(OUTAGE.toMillis()); // the outage itself, not a wait for a condition
            server.restart();
            long restartedNanos = System.nanoTime();

            await().atMost(Duration.ofSeconds(10)).until(() -> lastDeliveryNanos.get() - restartedNanos > 0);
            long resumeMillis = TimeUnit.NANOSECONDS.toMillis(lastDeliveryNanos.get() - restartedNanos);
            producing.join(TimeUnit.SECONDS.toMillis(40));
            assertThat(producing.isAlive()).as("producer finished").isFalse();
            assertThat(producer.gaveUp).as("batches the producer gave up on").isEmpty();
            for (Map<String, AtomicInteger> byPayload : received) {
                await().atMost(Duration.ofSeconds(40))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> byPayload.keySet().containsAll(producer.acknowledged));
            }
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> topic.groups().stream().allMatch(g -> g.lag() == 0 && g.pending() == 0));
            consumers.forEach(Subscription::close);

            System.out.printf(
                    "stream crash: %d acknowledged publishes (%d before the SIGKILL), %d failed and were retried;"
                            + " consumers resumed in %d ms; deliveries per group: %s%n",
                    producer.acknowledged.size(),
                    ackedBeforeKill,
                    producer.failures.get(),
                    resumeMillis,
                    received.stream()
                            .map(m -> m.values().stream()
                                    .mapToInt(AtomicInteger::get)
                                    .sum())
                            .toList());
            assertThat(producer.acknowledged).hasSize(MESSAGES);
            assertThat(topic.groups()).extracting(GroupInfo::dead).containsOnly(0L);
            assertThat(resumeMillis).as("consumers resume within seconds").isLessThan(10_000);
        }
    }

    /** Publishes {@code m0 .. m9999} in batches; a batch that fails is published again. */
    private static final class Producer implements Runnable {
        final RedisStreamTopic<String> topic;
        final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        final List<Integer> gaveUp = new ArrayList<>();
        final AtomicInteger failures = new AtomicInteger();

        Producer(RedisStreamTopic<String> topic) {
            this.topic = topic;
        }

        @Override
        public void run() {
            for (int from = 0; from < MESSAGES; from += BATCH) {
                List<String> batch = new ArrayList<>(BATCH);
                for (int i = from; i < from + BATCH; i++) {
                    batch.add("m" + i);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (true) {
                    try {
                        topic.publishAll(batch);
                        acknowledged.addAll(batch);
                        break;
                    } catch (TransportException e) {
                        failures.incrementAndGet();
                        if (System.nanoTime() - deadline > 0) {
                            gaveUp.add(from);
                            break;
                        }
                        try {
                            Thread.sleep(20);
                        } catch (InterruptedException ie) {
                            return;
                        }
                    }
                }
            }
        }
    }
}

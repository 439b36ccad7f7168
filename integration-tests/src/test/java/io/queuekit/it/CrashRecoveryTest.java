package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DelayQueue;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.Subscription;
import io.queuekit.TransportException;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/**
 * Redis is SIGKILLed in the middle of a run of 20,000 messages with four consumers, and restarted
 * from its append-only file (appendfsync always). Every message whose send returned is delivered;
 * the consumers resume without help; the duplicates that at-least-once allows are counted and
 * printed.
 */
class CrashRecoveryTest {
    private static final int MESSAGES = 20_000;
    private static final int BATCH = 50;
    private static final Duration OUTAGE = Duration.ofSeconds(1);

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = Transport.class,
            names = {"LIST_AT_LEAST_ONCE", "ZSET"})
    @Timeout(value = 100, unit = TimeUnit.SECONDS)
    void sigkillMidRun_everyAcknowledgedSendIsDelivered_andConsumersResumeOnTheirOwn(Transport transport)
            throws Exception {
        try (RedisServer server = RedisServer.builder()
                        .appendOnly(true)
                        .requireProcessControl()
                        .start();
                RedisClient client = RedisClients.builder(server).poolSize(16).build();
                MessageQueue<String> q = transport.build(
                        client,
                        "crash",
                        Codec.utf8(),
                        b -> b.visibilityTimeout(Duration.ofSeconds(2))
                                .blockTimeout(Duration.ofMillis(500))
                                .maxAttempts(1000))) {
            Map<String, AtomicInteger> byPayload = new ConcurrentHashMap<>();
            Map<String, Set<MessageId>> idsByPayload = new ConcurrentHashMap<>();
            Map<MessageId, AtomicInteger> byId = new ConcurrentHashMap<>();
            AtomicLong lastDeliveryNanos = new AtomicLong();
            Subscription consumers = q.consume(
                    d -> {
                        lastDeliveryNanos.set(System.nanoTime());
                        byId.computeIfAbsent(d.id(), k -> new AtomicInteger()).incrementAndGet();
                        byPayload
                                .computeIfAbsent(d.payload(), k -> new AtomicInteger())
                                .incrementAndGet();
                        idsByPayload
                                .computeIfAbsent(d.payload(), k -> ConcurrentHashMap.newKeySet())
                                .add(d.id());
                    },
                    ConsumeOptions.builder()
                            .concurrency(4)
                            .batchSize(20)
                            .pollTimeout(Duration.ofMillis(500))
                            .build());

            Producer producer = new Producer(q);
            Thread producing = new Thread(producer, "crash-producer");
            producing.setDaemon(true);
            producing.start();

            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> producer.acknowledged.size() >= MESSAGES / 4 && !byPayload.isEmpty());
            int ackedBeforeKill = producer.acknowledged.size();
            int receivedBeforeKill = byPayload.size();
            server.kill();
            Thread.sleep(OUTAGE.toMillis()); // the outage itself, not a wait for a condition
            server.restart();
            long restartedNanos = System.nanoTime();

            await().atMost(Duration.ofSeconds(10)).until(() -> lastDeliveryNanos.get() - restartedNanos > 0);
            long resumeMillis = TimeUnit.NANOSECONDS.toMillis(lastDeliveryNanos.get() - restartedNanos);

            producing.join(TimeUnit.SECONDS.toMillis(40));
            assertThat(producing.isAlive()).as("producer finished").isFalse();
            assertThat(producer.gaveUp).as("batches the producer gave up on").isEmpty();
            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> byPayload.keySet().containsAll(producer.acknowledged));
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> q.stats().total() == 0);
            consumers.close();

            Set<String> lost = ConcurrentHashMap.newKeySet();
            for (String p : producer.acknowledged) {
                if (!byPayload.containsKey(p)) {
                    lost.add(p);
                }
            }
            long deliveries =
                    byId.values().stream().mapToLong(AtomicInteger::get).sum();
            long redelivered = byId.values().stream()
                    .filter(c -> c.get() > 1)
                    .mapToLong(c -> c.get() - 1)
                    .sum();
            long storedTwice =
                    idsByPayload.values().stream().filter(ids -> ids.size() > 1).count();
            System.out.printf(
                    "%s crash: %d acknowledged sends (%d before the SIGKILL), %d sends failed and were "
                            + "retried, %d of %d payloads received before the kill; after the restart the consumers "
                            + "resumed in %d ms; %d deliveries of %d ids: %d redeliveries of an id, %d payloads "
                            + "stored twice by a retried send; lost: %d%n",
                    transport,
                    producer.acknowledged.size(),
                    ackedBeforeKill,
                    producer.failures.get(),
                    receivedBeforeKill,
                    MESSAGES,
                    resumeMillis,
                    deliveries,
                    byId.size(),
                    redelivered,
                    storedTwice,
                    lost.size());
            assertThat(lost).as("acknowledged sends never delivered").isEmpty();
            assertThat(producer.acknowledged).hasSize(MESSAGES);
            assertThat(q.stats().dead()).isZero();
            assertThat(resumeMillis).as("consumers resume within seconds").isLessThan(10_000);
        }
    }

    /**
     * Sends the payloads {@code m0 .. m19999} in batches; a batch that fails is sent again (it may
     * then be stored twice, which is what a caller of an at-least-once queue does).
     */
    private static final class Producer implements Runnable {
        final MessageQueue<String> q;
        final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        final List<Integer> gaveUp = new ArrayList<>();
        final AtomicInteger failures = new AtomicInteger();

        Producer(MessageQueue<String> q) {
            this.q = q;
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
                        // on the delay queue every other batch is due a little later, across the crash
                        if (q instanceof DelayQueue<String> d && (from / BATCH) % 2 == 1) {
                            for (String p : batch) {
                                if (!acknowledged.contains(p)) {
                                    d.schedule(p, Duration.ofMillis(1500));
                                    acknowledged.add(p);
                                }
                            }
                        } else {
                            q.sendAll(batch);
                        }
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

package io.queuekit.redis.zset;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.QueueClosedException;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import redis.clients.jedis.RedisClient;

/**
 * 100,000 messages due at random over three seconds, stored by a producer while ten consumers
 * run: none early, none lost, none twice. Lateness is printed, not asserted: receipt minus the
 * time the message became claimable (its due time, or when it was stored if the producer stored
 * it after its due time), on this host's clock, which the server shares.
 */
// run alone: its load on the shared server can time out other classes' calls (2 s), and theirs its own
@Isolated
@RedisServerTest
class RedisDelayQueueLoadTest {
    private static final int MESSAGES = 100_000;
    private static final int CONSUMERS = 10;
    private static final int SPREAD_MILLIS = 3_000;

    @Test
    @Timeout(value = 120, unit = SECONDS)
    void hundredThousandMessagesDueOverThreeSeconds_tenConsumers_noneEarlyLostOrTwice(RedisClient client)
            throws Exception {
        try (RedisDelayQueue<String> q = RedisDelayQueue.builder(client, "load-" + UUID.randomUUID(), Codec.utf8())
                .build()) {
            SplittableRandom random = new SplittableRandom(42);
            Instant base = Instant.now().truncatedTo(ChronoUnit.MILLIS).plusMillis(200);
            long[] dueMillis = new long[MESSAGES];
            // group by due millisecond, so that each group is stored in one round trip, in due order
            TreeMap<Long, List<String>> byDue = new TreeMap<>();
            for (int i = 0; i < MESSAGES; i++) {
                dueMillis[i] = base.toEpochMilli() + random.nextInt(SPREAD_MILLIS);
                byDue.computeIfAbsent(dueMillis[i], k -> new ArrayList<>()).add(Integer.toString(i));
            }

            AtomicIntegerArray deliveries = new AtomicIntegerArray(MESSAGES);
            AtomicLongArray receivedMicros = new AtomicLongArray(MESSAGES);
            AtomicLongArray storedMillis = new AtomicLongArray(MESSAGES);
            ExecutorService pool = Executors.newFixedThreadPool(CONSUMERS + 1);
            List<Future<Integer>> consumers = new ArrayList<>();
            for (int c = 0; c < CONSUMERS; c++) {
                consumers.add(pool.submit(() -> consume(q, deliveries, receivedMicros, storedMillis)));
            }

            long produceStart = System.nanoTime();
            Future<?> producer = pool.submit(() -> {
                for (Map.Entry<Long, List<String>> e : byDue.entrySet()) {
                    q.scheduleAllAt(e.getValue(), Instant.ofEpochMilli(e.getKey()));
                }
                return null;
            });
            producer.get(60, SECONDS);
            long produceMillis = (System.nanoTime() - produceStart) / 1_000_000;

            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> q.stats().total() == 0);
            q.close();
            int batches = 0;
            for (Future<Integer> f : consumers) {
                batches += f.get(15, SECONDS);
            }
            pool.shutdown();

            long[] lateness = new long[MESSAGES];
            int lost = 0;
            int twice = 0;
            int early = 0;
            int storedLate = 0;
            long lastReceived = 0;
            for (int i = 0; i < MESSAGES; i++) {
                if (deliveries.get(i) == 0) {
                    lost++;
                    continue;
                }
                twice += deliveries.get(i) > 1 ? 1 : 0;
                early += receivedMicros.get(i) < dueMillis[i] * 1_000 ? 1 : 0;
                lastReceived = Math.max(lastReceived, receivedMicros.get(i));
                storedLate += storedMillis.get(i) > dueMillis[i] ? 1 : 0;
                lateness[i] = receivedMicros.get(i) - Math.max(dueMillis[i], storedMillis.get(i)) * 1_000;
            }
            Arrays.sort(lateness);
            System.out.printf(
                    "%,d messages due over %d ms, %d consumers, produced in %d ms (%d round trips), "
                            + "%,d stored after their due time, received in %,d batches; "
                            + "the last received %d ms after the first was due; "
                            + "lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                    MESSAGES,
                    SPREAD_MILLIS,
                    CONSUMERS,
                    produceMillis,
                    byDue.size(),
                    storedLate,
                    batches,
                    lastReceived / 1_000 - byDue.firstKey(),
                    lateness[MESSAGES / 2] / 1000.0,
                    lateness[MESSAGES * 99 / 100] / 1000.0,
                    lateness[MESSAGES - 1] / 1000.0);

            assertThat(lost).as("lost").isZero();
            assertThat(twice).as("delivered twice").isZero();
            assertThat(early).as("delivered before due").isZero();
        }
    }

    /** One consumer: fetches batches, notes when each message arrived, acks it. */
    private static int consume(
            RedisDelayQueue<String> q,
            AtomicIntegerArray deliveries,
            AtomicLongArray receivedMicros,
            AtomicLongArray storedMillis)
            throws InterruptedException {
        int batches = 0;
        try {
            while (true) {
                List<Delivery<String>> batch = q.pollBatch(100, 1, SECONDS);
                long now = micros(Instant.now());
                if (!batch.isEmpty()) {
                    batches++;
                }
                for (Delivery<String> d : batch) {
                    int i = Integer.parseInt(d.payload());
                    deliveries.incrementAndGet(i);
                    receivedMicros.set(i, now);
                    storedMillis.set(i, d.enqueuedAt().toEpochMilli());
                }
                for (Delivery<String> d : batch) {
                    d.ack();
                }
            }
        } catch (QueueClosedException e) {
            return batches;
        }
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000 + t.getNano() / 1_000;
    }
}

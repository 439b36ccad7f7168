package io.queuekit.redis.list;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.Subscription;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/** Many consumers and a producer at once; correctness only (speed is the benchmark's business). */
// run alone: its load on the shared server can time out other classes' calls (2 s), and theirs its own
@Isolated
@RedisServerTest
class RedisListQueueLoadTest {
    private static final int TOTAL = 20_000;
    private final RedisClient client;

    RedisListQueueLoadTest(RedisClient client) {
        this.client = client;
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    @Timeout(120)
    void eightConsumers_twentyThousandMessages_eachHandledExactlyOnce(Guarantee guarantee) {
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("load"), Codec.utf8())
                .guarantee(guarantee)
                .build()) {
            Map<String, Integer> counts = new ConcurrentHashMap<>();
            Subscription workers = q.consume(
                    d -> counts.merge(d.payload(), 1, Integer::sum),
                    ConsumeOptions.builder()
                            .concurrency(8)
                            .pollTimeout(Duration.ofMillis(100))
                            .build());

            // sent while the workers run: batches and single sends mixed
            for (int start = 0; start < TOTAL; start += 1_000) {
                List<String> batch = IntStream.range(start, start + 900)
                        .mapToObj(i -> "m" + i)
                        .collect(Collectors.toList());
                q.sendAll(batch);
                for (int i = start + 900; i < start + 1_000; i++) {
                    q.send("m" + i);
                }
            }

            await().atMost(Duration.ofSeconds(90))
                    .until(() -> counts.size() >= TOTAL && q.stats().total() == 0);
            workers.close();

            assertThat(counts).hasSize(TOTAL);
            assertThat(counts.entrySet())
                    .filteredOn(e -> e.getValue() != 1)
                    .as("duplicates")
                    .isEmpty();
            assertThat(q.deadLetters().size()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void theLargestClaimBatch_takesTenThousandInOneFetch(Guarantee guarantee) throws Exception {
        try (RedisListQueue<String> q = RedisListQueue.builder(client, Queues.unique("batch"), Codec.utf8())
                .guarantee(guarantee)
                .claimBatch(10_000)
                .build()) {
            q.sendAll(IntStream.range(0, 10_000).mapToObj(i -> "m" + i).collect(Collectors.toList()));

            List<Delivery<String>> got = q.pollBatch(10_000, 5, TimeUnit.SECONDS);

            assertThat(got).hasSize(10_000);
            assertThat(q.ackAll(got)).isEqualTo(10_000);
            assertThat(q.stats().total()).isZero();
        }
    }

    @org.junit.jupiter.api.Test
    @Timeout(60)
    void everyMessageInFlight_getsALease_howeverManyWereTakenOneByOne() {
        String name = Queues.unique("held");
        try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                .blockTimeout(Duration.ofMillis(100))
                .build()) {
            int n = 12_000; // more than one upkeep leases at once
            q.sendAll(IntStream.range(0, n).mapToObj(i -> "m" + i).collect(Collectors.toList()));
            for (int i = 0; i < n; i++) {
                assertThat(q.poll()).isNotNull(); // each taken alone, into 'claiming'
            }

            // every upkeep (stats runs one when due) leases what waits in 'claiming'
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> q.stats().inFlight() == n && client.zcard(Queues.key(name, "inflight")) == n);
            assertThat(client.llen(Queues.key(name, "claiming"))).isZero();
        }
    }
}

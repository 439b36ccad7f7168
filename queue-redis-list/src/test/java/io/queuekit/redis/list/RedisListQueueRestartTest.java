package io.queuekit.redis.list;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.QueueException;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.Subscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * Redis killed with SIGKILL and restarted from its append-only file (fsync on every write) while
 * consumers block: they resume on their own, and every message whose send returned is handled.
 */
@Timeout(120)
class RedisListQueueRestartTest {

    private static RedisListQueue<String> queue(RedisClient client, Guarantee guarantee) {
        return RedisListQueue.builder(client, Queues.unique("restart"), Codec.utf8())
                .guarantee(guarantee)
                .visibilityTimeout(Duration.ofSeconds(2))
                .blockTimeout(Duration.ofMillis(300))
                .build();
    }

    private static ConsumeOptions workers() {
        return ConsumeOptions.builder()
                .concurrency(4)
                .pollTimeout(Duration.ofMillis(500))
                .build();
    }

    @Test
    void atLeastOnce_killAndRestart_duringTraffic_loseNoMessageWhoseSendReturned() throws Exception {
        try (RedisServer server = RedisServer.builder()
                        .appendOnly(true)
                        .requireProcessControl()
                        .start();
                RedisClient client = RedisClients.create(server);
                RedisListQueue<String> q = queue(client, Guarantee.AT_LEAST_ONCE)) {
            Set<String> handled = ConcurrentHashMap.newKeySet();
            Subscription consumers = q.consume(d -> handled.add(d.payload()), workers());
            List<String> stored = new CopyOnWriteArrayList<>();
            for (int i = 0; i < 200; i++) {
                q.send("before-" + i);
                stored.add("before-" + i);
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> handled.containsAll(stored));
            // the workers are idle now, blocked in Redis

            AtomicBoolean producing = new AtomicBoolean(true);
            AtomicInteger failedSends = new AtomicInteger();
            Thread producer = new Thread(
                    () -> {
                        for (int i = 0; producing.get(); i++) {
                            try {
                                q.send("during-" + i);
                                stored.add("during-" + i);
                            } catch (QueueException e) {
                                failedSends.incrementAndGet(); // may or may not have been stored: not counted
                            }
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                        }
                    },
                    "test-producer");
            producer.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> stored.size() >= 300);

            server.kill();
            await().atMost(Duration.ofSeconds(20)).until(() -> failedSends.get() > 0);
            server.restart();
            int atRestart = stored.size();
            await().atMost(Duration.ofSeconds(30)).until(() -> stored.size() >= atRestart + 200);
            producing.set(false);
            producer.join(10_000);

            await().atMost(Duration.ofSeconds(60)).until(() -> handled.containsAll(stored));
            assertThat(consumers.isActive()).isTrue();
            // deliveries whose ack the crash cut off come back once their lease expires, and are settled
            await().atMost(Duration.ofSeconds(30)).until(() -> q.stats().total() == 0);
        }
    }

    @Test
    void atMostOnce_consumersBlockedThroughAKill_resumeOnTheirOwn() throws Exception {
        try (RedisServer server = RedisServer.builder()
                        .appendOnly(true)
                        .requireProcessControl()
                        .start();
                RedisClient client = RedisClients.create(server);
                RedisListQueue<String> q = queue(client, Guarantee.AT_MOST_ONCE)) {
            Set<String> handled = ConcurrentHashMap.newKeySet();
            Subscription consumers = q.consume(d -> handled.add(d.payload()), workers());
            q.send("before");
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("before"));

            server.kill();
            server.restart();
            List<String> after = List.of("after-1", "after-2", "after-3");
            // the client's pooled connections died with the server: a send may fail once per stale one
            await().atMost(Duration.ofSeconds(10))
                    .ignoreExceptionsInstanceOf(QueueException.class)
                    .until(() -> !q.sendAll(after).isEmpty());

            await().atMost(Duration.ofSeconds(30)).until(() -> handled.containsAll(after));
            assertThat(consumers.isActive()).isTrue();
        }
    }
}

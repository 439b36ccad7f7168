package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.MessageQueue;
import io.queuekit.TransportException;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Redis is unreachable for 5 s while producers send to a list queue and a delay queue and publish
 * to a broadcaster, and consumers and a subscriber wait. While it is down every {@code send} and
 * {@code publish} fails fast with a {@link TransportException}; none reports success for a message
 * it did not store; once Redis is back the same consumers and subscriber carry on by themselves.
 *
 * <p>What makes {@code send} fail fast is the client's configuration ({@link RedisClients}): a refused
 * connection fails at once, a connection that does not answer fails after
 * {@code connectionTimeoutMillis} or {@code socketTimeoutMillis} (1 s here, Jedis' default 2 s), and
 * the pool's {@code maxWait} (2 s here, Jedis' default: forever) bounds the wait for a connection.
 */
class OutageTest {
    private static final Duration OUTAGE = Duration.ofSeconds(5);
    /** The slowest a failing call may be: connect timeout plus socket timeout plus slack. */
    private static final long FAIL_FAST_MILLIS =
            RedisClients.CONNECTION_TIMEOUT.toMillis() + RedisClients.SOCKET_TIMEOUT.toMillis() + 1_000;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void redisDownFor5s_sendsFailFast_noFalseSuccess_consumersAndSubscribersRecover() throws Exception {
        try (RedisServer server = RedisServer.builder()
                        .appendOnly(true)
                        .requireProcessControl()
                        .start();
                RedisClient client = RedisClients.builder(server).poolSize(24).build();
                MessageQueue<String> list = Transport.LIST_AT_LEAST_ONCE.build(
                        client,
                        "outage-list",
                        Codec.utf8(),
                        b -> b.visibilityTimeout(Duration.ofSeconds(3)).blockTimeout(Duration.ofMillis(500)));
                MessageQueue<String> zset = Transport.ZSET.build(
                        client,
                        "outage-zset",
                        Codec.utf8(),
                        b -> b.visibilityTimeout(Duration.ofSeconds(3)).blockTimeout(Duration.ofMillis(500)));
                RedisBroadcaster<String> broadcaster = RedisBroadcaster.builder(client, "outage", Codec.utf8())
                        .reconnectBackoff(Duration.ofMillis(50), Duration.ofSeconds(1))
                        .build()) {
            Set<String> received = ConcurrentHashMap.newKeySet();
            ConsumeOptions options = ConsumeOptions.builder()
                    .concurrency(2)
                    .pollTimeout(Duration.ofMillis(500))
                    .build();
            list.consume(d -> received.add(d.payload()), options);
            zset.consume(d -> received.add(d.payload()), options);
            Set<String> heard = ConcurrentHashMap.newKeySet();
            RedisSubscription subscription = broadcaster.subscribe(heard::add);

            Load load = new Load(Map.of(
                    "list", p -> list.send(p),
                    "zset", p -> zset.send(p),
                    "pubsub", p -> broadcaster.publish(p)));
            Thread producer = new Thread(load, "outage-producer");
            producer.setDaemon(true);
            producer.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> load.stored.size() >= 300);

            server.kill();
            long downFrom = System.nanoTime();
            Thread.sleep(OUTAGE.toMillis()); // the outage itself
            long downUntil = System.nanoTime();
            server.restart();
            long back = System.nanoTime();

            int storedAtRestart = load.stored.size();
            await().atMost(Duration.ofSeconds(20)).until(() -> load.stored.size() >= storedAtRestart + 300);
            load.stop = true;
            producer.join(5_000);

            Set<String> queued = ConcurrentHashMap.newKeySet();
            load.stored.stream().filter(p -> !p.startsWith("pubsub")).forEach(queued::add);
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> received.containsAll(queued));
            await().atMost(Duration.ofSeconds(10)).until(subscription::isConnected);
            broadcaster.publish("after the outage");
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains("after the outage"));

            List<Failure> whileDown = load.failures.stream()
                    .filter(f -> f.atNanos - downFrom > 0 && downUntil - f.atNanos > 0)
                    .toList();
            long slowest = load.failures.stream().mapToLong(f -> f.millis).max().orElse(0);
            long heardAfterRestart = load.stored.stream()
                    .filter(p -> p.startsWith("pubsub"))
                    .filter(heard::contains)
                    .count();
            System.out.printf(
                    "outage of %d ms: %d calls stored, %d failed (%d while Redis was down), slowest failure "
                            + "%d ms, median %d ms; first failure: %s; subscriber reconnects %d, heard %d published "
                            + "messages; everything acknowledged was delivered%n",
                    TimeUnit.NANOSECONDS.toMillis(back - downFrom),
                    load.stored.size(),
                    load.failures.size(),
                    whileDown.size(),
                    slowest,
                    median(load.failures),
                    load.failures.isEmpty() ? "-" : load.failures.get(0).message,
                    subscription.reconnects(),
                    heardAfterRestart);

            assertThat(load.unexpected)
                    .as("exceptions other than TransportException")
                    .isEmpty();
            for (String kind : List.of("list", "zset", "pubsub")) {
                assertThat(whileDown)
                        .as(kind + " calls that failed while Redis was down")
                        .anySatisfy(f -> assertThat(f.payload).startsWith(kind));
            }
            assertThat(load.failures).allSatisfy(f -> {
                assertThat(f.message).as("names the operation").containsAnyOf("send failed", "publish");
                // refused or reset connections, and LOADING replies while the restarted server reads its AOF
                assertThat(f.cause).isInstanceOf(JedisException.class);
            });
            assertThat(slowest).as("slowest failing call, ms").isLessThan(FAIL_FAST_MILLIS);
            for (Failure f : whileDown) {
                assertThat(received)
                        .as("a send that failed while Redis was down stored nothing")
                        .doesNotContain(f.payload);
            }
            assertThat(received).containsAll(queued);
            assertThat(subscription.reconnects()).isGreaterThanOrEqualTo(1);
            assertThat(subscription.isActive()).isTrue();
        }
    }

    private static long median(List<Failure> failures) {
        List<Long> ms =
                new ArrayList<>(failures.stream().map(f -> f.millis).sorted().toList());
        return ms.isEmpty() ? 0 : ms.get(ms.size() / 2);
    }

    private record Failure(String payload, long atNanos, long millis, String message, Throwable cause) {}

    /** Sends to every target in turn, about 300 rounds a second, recording what returned and what threw. */
    private static final class Load implements Runnable {
        final Map<String, Function<String, ?>> targets;
        final Set<String> stored = ConcurrentHashMap.newKeySet();
        final List<Failure> failures = new CopyOnWriteArrayList<>();
        final List<Throwable> unexpected = new CopyOnWriteArrayList<>();
        volatile boolean stop;

        Load(Map<String, Function<String, ?>> targets) {
            this.targets = targets;
        }

        @Override
        public void run() {
            for (int i = 0; !stop; i++) {
                for (Map.Entry<String, Function<String, ?>> t : targets.entrySet()) {
                    String payload = t.getKey() + "-" + i;
                    long start = System.nanoTime();
                    try {
                        t.getValue().apply(payload);
                        stored.add(payload);
                    } catch (TransportException e) {
                        failures.add(new Failure(
                                payload,
                                start,
                                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
                                e.getMessage(),
                                e.getCause()));
                    } catch (RuntimeException e) {
                        unexpected.add(e);
                    }
                }
                try {
                    Thread.sleep(3);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}

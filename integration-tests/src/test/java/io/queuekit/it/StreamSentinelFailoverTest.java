package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.ConsumerGroup;
import io.queuekit.Subscription;
import io.queuekit.TransportException;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.testing.RedisSentinelGroup;
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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisSentinelClient;

/**
 * A stream topic behind Sentinel, two groups of two consumers each, while a publisher publishes
 * 6,000 messages and the primary is failed over mid-way, SIGKILLed or by {@code SENTINEL FAILOVER}
 * (the old primary then runs on, blocked readers and all, until it is made a replica): the
 * publisher and consumers carry on by themselves. The topic cannot wait for replicas (its builder
 * refuses {@code replicas(...)}), so a failover may lose what the old primary acknowledged but had
 * not replicated: publishes and acks (delivered again). A group that read such a publish from the
 * old primary in time has it, another may never get it. To tell that apart from a bug, the test
 * writes a marker and {@code WAIT}s for the replica just before the failover:
 * everything acknowledged before the marker was replicated and must survive, whatever was lost
 * was sent before the old primary could take no more writes (its process had exited, or it was a
 * replica): the time a call was sent, not when its reply was read, since a reply the old primary
 * wrote can wait in the client's socket buffer past the kill. Every message published after the
 * promotion reaches both groups.
 */
class StreamSentinelFailoverTest {
    private static final int MESSAGES = 6_000;
    private static final int BATCH = 20;
    private static final Duration PACE = Duration.ofMillis(15);
    private static final List<String> GROUPS = List.of("billing", "shipping");

    enum Fault {
        SIGKILL,
        SENTINEL_FAILOVER
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void primaryFailedOver_midRun_bothGroupsCarryOn_andOnlyUnreplicatedWritesMayBeLost(Fault fault) throws Exception {
        try (RedisSentinelGroup sentinels = RedisSentinelGroup.builder()
                        .masterName("stream-failover")
                        .start();
                RedisSentinelClient client = sentinels.client();
                RedisStreamTopic<String> topic = RedisStreamTopic.builder(client, "failover", Codec.utf8())
                        .visibilityTimeout(Duration.ofSeconds(2))
                        .blockTimeout(Duration.ofMillis(500))
                        .maxAttempts(1000)
                        .build()) {
            Map<String, Consumed> consumed = new ConcurrentHashMap<>();
            List<Subscription> consumers = new ArrayList<>();
            for (String name : GROUPS) {
                ConsumerGroup<String> g = topic.group(name);
                Consumed c = new Consumed();
                consumed.put(name, c);
                consumers.add(g.consume(
                        d -> {
                            c.deliveries
                                    .computeIfAbsent(d.payload(), k -> new AtomicInteger())
                                    .incrementAndGet();
                            c.lastDeliveryNanos.set(System.nanoTime());
                            long sent = System.nanoTime();
                            if (d.ack()) { // the worker's own ack after this returns is then skipped
                                c.ackedAt.putIfAbsent(d.payload(), System.nanoTime());
                                c.ackSentAt.putIfAbsent(d.payload(), sent);
                            }
                        },
                        ConsumeOptions.builder()
                                .concurrency(2)
                                .batchSize(20)
                                .pollTimeout(Duration.ofMillis(500))
                                .build()));
            }
            Publisher publisher = new Publisher(topic);
            Thread publishing = new Thread(publisher, "stream-failover-publisher");
            publishing.setDaemon(true);
            publishing.start();

            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> publisher.acknowledgedAt.size() >= MESSAGES / 4
                            && consumed.values().stream().allMatch(c -> !c.ackedAt.isEmpty()));
            RedisServer old = sentinels.primary();
            long replicated = replicatedUpToNow(old);
            long faulted = System.nanoTime();
            long killed = 0;
            if (fault == Fault.SIGKILL) {
                sentinels.killPrimary(); // returns once the process has exited
                killed = System.nanoTime();
                sentinels.awaitPrimaryWritable(Duration.ofSeconds(30));
            } else {
                sentinels.failover(); // returns once the old primary is a replica: it takes no more writes
            }
            long promoted = System.nanoTime();
            // from then on no call sent can reach the old primary as a write; one sent before may have
            // been taken by it, its reply read after (a reply can wait in the client's socket buffer)
            long oldPrimaryGone = fault == Fault.SIGKILL ? killed : promoted;

            publishing.join(TimeUnit.SECONDS.toMillis(40));
            assertThat(publishing.isAlive()).as("publisher finished").isFalse();
            assertThat(publisher.gaveUp).as("batches the publisher gave up on").isEmpty();
            assertThat(publisher.acknowledgedAt).hasSize(MESSAGES);
            Set<String> publishedAfter = publisher.acknowledgedAfter(promoted);
            assertThat(publishedAfter)
                    .as("published after the promotion (the test needs some)")
                    .isNotEmpty();
            for (String name : GROUPS) {
                Consumed c = consumed.get(name);
                await().atMost(Duration.ofSeconds(20))
                        .pollInterval(Duration.ofMillis(100))
                        .alias(name + " receives every message published after the promotion, without a restart")
                        .until(() -> c.deliveries.keySet().containsAll(publishedAfter));
            }
            // everything the run will get: no group has anything left to read or in flight
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> topic.groups().stream().allMatch(g -> g.lag() == 0 && g.pending() == 0));
            consumers.forEach(Subscription::close);

            List<String> report = new ArrayList<>();
            for (String name : GROUPS) {
                Consumed c = consumed.get(name);
                Set<String> lost = publisher.lost(c);
                Set<String> ackedTwice = c.ackedThenDeliveredAgain(promoted);
                report.add(String.format(
                        "%s: %d lost, %d acked before the promotion and delivered again, %d deliveries",
                        name, lost.size(), ackedTwice.size(), c.total()));
                assertThat(publisher.acknowledgedBefore(replicated, lost))
                        .as("%s: acknowledged before the marker was replicated, never delivered", name)
                        .isEmpty();
                assertThat(c.ackedBefore(replicated, ackedTwice))
                        .as("%s: acked before the marker was replicated, delivered again", name)
                        .isEmpty();
                assertThat(c.ackSentBefore(oldPrimaryGone, ackedTwice))
                        .as("%s: only acks the old primary could take may be forgotten", name)
                        .hasSameSizeAs(ackedTwice);
                assertThat(publisher.sentBefore(oldPrimaryGone, lost))
                        .as("%s: only publishes the old primary could take may be lost", name)
                        .hasSameSizeAs(lost);
            }
            System.out.printf(
                    "stream behind Sentinel, %s after %d acknowledged publishes: replica promoted after %d ms;"
                            + " publishes failed %d times and were retried; %d acknowledged between the replicated"
                            + " marker and the old primary's last write; %s%n",
                    fault,
                    publisher
                            .acknowledgedBefore(faulted, publisher.acknowledgedAt.keySet())
                            .size(),
                    TimeUnit.NANOSECONDS.toMillis(promoted - faulted),
                    publisher.failures.get(),
                    publisher.acknowledgedBetween(replicated, oldPrimaryGone),
                    String.join("; ", report));
        }
    }

    /**
     * Writes a marker on {@code primary} and waits until its replica has it: every write the
     * primary took before it is then on the replica. Returns the time before the marker.
     */
    private static long replicatedUpToNow(RedisServer primary) {
        long before = System.nanoTime();
        try (Jedis jedis = new Jedis(primary.host(), primary.port())) {
            jedis.set("stream-failover-marker", "x");
            assertThat(jedis.waitReplicas(1, 5_000))
                    .as("replicas that have the marker")
                    .isEqualTo(1);
        }
        return before;
    }

    /** What one group's consumers handled, by payload. */
    private static final class Consumed {
        final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
        /** When each payload's first successful ack returned ({@link System#nanoTime()}). */
        final Map<String, Long> ackedAt = new ConcurrentHashMap<>();
        /** When that ack was sent ({@link System#nanoTime()} before the call). */
        final Map<String, Long> ackSentAt = new ConcurrentHashMap<>();

        final AtomicLong lastDeliveryNanos = new AtomicLong();

        long total() {
            return deliveries.values().stream().mapToLong(AtomicInteger::get).sum();
        }

        /** Payloads acked before {@code nanos} and delivered more than once. */
        Set<String> ackedThenDeliveredAgain(long nanos) {
            return ackedAt.entrySet().stream()
                    .filter(e -> e.getValue() - nanos < 0
                            && deliveries.get(e.getKey()).get() > 1)
                    .map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
        }

        /** Of {@code payloads}, those acked before {@code nanos}. */
        Set<String> ackedBefore(long nanos, Set<String> payloads) {
            return payloads.stream().filter(p -> ackedAt.get(p) - nanos < 0).collect(Collectors.toSet());
        }

        /** Of {@code payloads}, those whose first successful ack was sent before {@code nanos}. */
        Set<String> ackSentBefore(long nanos, Set<String> payloads) {
            return payloads.stream().filter(p -> ackSentAt.get(p) - nanos < 0).collect(Collectors.toSet());
        }
    }

    /** Publishes {@code m0 .. m5999} in paced batches; a batch that fails is published again. */
    private static final class Publisher implements Runnable {
        final RedisStreamTopic<String> topic;
        /** When each payload's publish first returned ({@link System#nanoTime()}). */
        final Map<String, Long> acknowledgedAt = new ConcurrentHashMap<>();
        /** When the publish that first returned for each payload was sent ({@link System#nanoTime()}). */
        final Map<String, Long> sentAt = new ConcurrentHashMap<>();

        final List<Integer> gaveUp = new ArrayList<>();
        final AtomicInteger failures = new AtomicInteger();

        Publisher(RedisStreamTopic<String> topic) {
            this.topic = topic;
        }

        Set<String> acknowledgedAfter(long nanos) {
            return acknowledgedAt.entrySet().stream()
                    .filter(e -> e.getValue() - nanos > 0)
                    .map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
        }

        /** Of {@code payloads}, those acknowledged before {@code nanos}. */
        Set<String> acknowledgedBefore(long nanos, Set<String> payloads) {
            return payloads.stream()
                    .filter(p -> acknowledgedAt.get(p) - nanos < 0)
                    .collect(Collectors.toSet());
        }

        /** Of {@code payloads}, those whose acknowledged publish was sent before {@code nanos}. */
        Set<String> sentBefore(long nanos, Set<String> payloads) {
            return payloads.stream().filter(p -> sentAt.get(p) - nanos < 0).collect(Collectors.toSet());
        }

        long acknowledgedBetween(long from, long to) {
            return acknowledgedAt.values().stream()
                    .filter(t -> t - from >= 0 && t - to < 0)
                    .count();
        }

        /** Acknowledged payloads {@code c} never received. */
        Set<String> lost(Consumed c) {
            return acknowledgedAt.keySet().stream()
                    .filter(p -> !c.deliveries.containsKey(p))
                    .collect(Collectors.toSet());
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
                        long sent = System.nanoTime();
                        topic.publishAll(batch);
                        long now = System.nanoTime();
                        batch.forEach(p -> {
                            acknowledgedAt.putIfAbsent(p, now);
                            sentAt.putIfAbsent(p, sent);
                        });
                        break;
                    } catch (TransportException e) {
                        failures.incrementAndGet();
                        if (System.nanoTime() - deadline > 0) {
                            gaveUp.add(from);
                            break;
                        }
                        if (!pause(Duration.ofMillis(20))) {
                            return;
                        }
                    }
                }
                if (!pause(PACE)) {
                    return;
                }
            }
        }

        private static boolean pause(Duration d) {
            try {
                Thread.sleep(d.toMillis()); // pacing the load, not waiting for a condition
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}

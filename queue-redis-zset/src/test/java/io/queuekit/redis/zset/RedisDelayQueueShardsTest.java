package io.queuekit.redis.zset;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueException;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Semantics;
import io.queuekit.TransportException;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.internal.Sharding;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisCluster;
import io.queuekit.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;

/**
 * A delay queue built with {@code shards(n)}: what is specific to its shards, beyond the contract.
 * Runs alone: some tests bound how late a message comes, and one waits for a blocked client in the
 * shared server's CLIENT LIST, which another class's consumer would satisfy.
 */
@Isolated
@Timeout(60)
class RedisDelayQueueShardsTest {
    private static final RedisClient CLIENT = RedisClients.create(RedisServer.shared());

    @AfterAll
    static void closeClient() {
        CLIENT.close();
    }

    private static String unique(String what) {
        return (what + "-" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
    }

    private static RedisDelayQueue.Builder<String> sharded(String name, int shards) {
        return RedisDelayQueue.builder(CLIENT, name, Codec.utf8())
                .shards(shards)
                .visibilityTimeout(Duration.ofSeconds(1))
                .blockTimeout(Duration.ofMillis(200));
    }

    /** A key that {@code shardBy(identity)} sends to {@code shard} of {@code count}. */
    private static String keyOfShard(int shard, int count) {
        Sharding<String> sharding = new Sharding<>(count, Function.identity());
        for (int i = 0; ; i++) {
            if (sharding.of("key" + i) == shard) {
                return "key" + i;
            }
        }
    }

    private static int shardOf(MessageId generated) {
        String v = generated.value();
        return Integer.parseInt(v.substring(v.lastIndexOf('~') + 1));
    }

    private static String clientList() {
        return new String(
                (byte[]) CLIENT.executeCommand(new CommandArguments(Protocol.Command.CLIENT).addObjects("LIST")),
                StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -3, 257})
    void shards_outOfRange_isRefused_namingShards(int shards) {
        assertThatThrownBy(() ->
                        RedisDelayQueue.builder(CLIENT, "refused", Codec.utf8()).shards(shards))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shards must be 1 to 256: " + shards);
    }

    @Test
    void semantics_andKeys_ofAShardedDelayQueue() {
        String name = unique("keys");
        try (RedisDelayQueue<String> q = sharded(name, 3).build();
                RedisDelayQueue<String> keyed =
                        sharded(name, 3).shardBy(Function.identity()).build();
                RedisDelayQueue<String> one = sharded(unique("one"), 1).build()) {
            List<MessageId> ids = List.of(q.send("a"), q.send("b"), q.send("c"));

            assertThat(ids).extracting(RedisDelayQueueShardsTest::shardOf).containsExactly(0, 1, 2);
            for (int i = 0; i < 3; i++) {
                assertThat(CLIENT.zcard(RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name)
                                .shard(i, 3)
                                .key("ready")))
                        .isEqualTo(1);
            }
            assertThat(CLIENT.exists("queuekit:{" + name + "}:ready")).isFalse();
            assertThat(q.semantics())
                    .isEqualTo(new Semantics(
                            "redis-zset",
                            Semantics.Guarantee.AT_LEAST_ONCE,
                            Semantics.Ordering.NONE,
                            true,
                            false,
                            true));
            assertThat(keyed.semantics().ordering()).isEqualTo(Semantics.Ordering.PER_KEY);
            assertThat(one.semantics().ordering()).isEqualTo(Semantics.Ordering.DUE_TIME);
            assertThat(one.send("x").value()).doesNotContain("~");
            assertThat(q).hasToString("RedisDelayQueue[redis-zset " + name + ", 3 shards]");
        }
    }

    @Test
    void aChosenId_livesInTheShardOfItsHash_soASecondScheduleIsIgnored_andCancelFindsIt() {
        try (RedisDelayQueue<String> q = sharded(unique("chosen"), 5).build()) {
            List<MessageId> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                MessageId id = MessageId.of("order-" + i);
                ids.add(id);
                assertThat(q.schedule(id, "first " + i, Duration.ofMinutes(5))).isTrue();
            }

            for (MessageId id : ids) {
                assertThat(q.schedule(id, "second", Duration.ofMinutes(1)))
                        .as("%s again", id)
                        .isFalse();
            }
            assertThat(q.stats().delayed()).isEqualTo(20);
            assertThat(q.peek(100)).extracting(WaitingMessage::payload).noneMatch("second"::equals);
            for (MessageId id : ids) {
                assertThat(q.cancel(id)).as("cancel %s", id).isTrue();
            }
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
        }
    }

    @Test
    void byKey_aChosenId_goesToItsKeysShard_andCancelLooksInEveryShard() throws Exception {
        String name = unique("chosen-keyed");
        try (RedisDelayQueue<String> q =
                sharded(name, 3).shardBy(p -> p.substring(0, 2)).build()) {
            MessageId id = MessageId.of("reminder-7");
            int shard = new Sharding<String>(3, Function.identity()).of("k1");

            assertThat(q.scheduleAt(id, "k1 remind", Instant.now().plusSeconds(300)))
                    .isTrue();
            assertThat(q.scheduleAt(id, "k1 again", Instant.now().plusSeconds(300)))
                    .as("same key, same shard")
                    .isFalse();
            assertThat(CLIENT.zscore(
                            RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name)
                                    .shard(shard, 3)
                                    .key("ready"),
                            id.value()))
                    .as("in the shard of its key")
                    .isNotNull();

            assertThat(q.cancel(id)).isTrue();
            assertThat(q.cancel(id)).isFalse();
            assertThat(q.cancel(MessageId.of("no-such-id"))).isFalse();
            assertThat(q.stats().total()).isZero();
        }
    }

    @Test
    void generatedIds_nameTheirShard_forCancelAndDeadLetters() throws Exception {
        try (RedisDelayQueue<String> q = sharded(unique("generated"), 3).build()) {
            List<MessageId> ids = q.scheduleEach(List.of(
                    Scheduled.at("a", Instant.now().plusSeconds(60)),
                    Scheduled.at("b", Instant.now().plusSeconds(61))));
            MessageId other = q.schedule("c", Duration.ofMinutes(1));

            assertThat(ids)
                    .extracting(RedisDelayQueueShardsTest::shardOf)
                    .as("a batch in one shard")
                    .containsOnly(shardOf(ids.get(0)));
            assertThat(shardOf(other)).isNotEqualTo(shardOf(ids.get(0)));
            assertThat(q.cancel(ids.get(1))).isTrue();
            assertThat(q.cancel(MessageId.of(ids.get(0).value().replaceAll("~\\d+$", "~9"))))
                    .as("no shard 9")
                    .isFalse();
            assertThat(q.cancel(MessageId.of(ids.get(0).value())))
                    .as("read back from text")
                    .isTrue();
            assertThat(q.stats().delayed()).isEqualTo(1);
        }
    }

    @Test
    void anIdleConsumerWaitingOnOneShard_getsAMessageDueOnAnother_withinAboutOneBlockTimeout() throws Exception {
        String name = unique("idle");
        Duration block = Duration.ofSeconds(2);
        try (RedisDelayQueue<String> receiver = RedisDelayQueue.builder(CLIENT, name, Codec.utf8())
                        .shards(3)
                        .blockTimeout(block)
                        .build();
                RedisDelayQueue<String> sender = RedisDelayQueue.builder(CLIENT, name, Codec.utf8())
                        .shards(3)
                        .shardBy(Function.identity())
                        .build()) {
            // a new queue object's first receive goes round from shard 0, then waits on shard 0
            CompletableFuture<Delivery<String>> polled = CompletableFuture.supplyAsync(() -> {
                try {
                    return receiver.poll(60, SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> clientList().contains("cmd=blpop"));
            long sent = System.nanoTime();

            MessageId id = sender.send(keyOfShard(2, 3));

            assertThat(shardOf(id)).isEqualTo(2);
            await().atMost(block.multipliedBy(3)).until(polled::isDone);
            assertThat(polled.get().id()).isEqualTo(id);
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(block.multipliedBy(3));
        }
    }

    @Test
    void aWaitingConsumer_waitsOnTheShardWhoseMessageFallsDueFirst_soItIsNotABlockTimeoutLate() throws Exception {
        String name = unique("soonest");
        Duration block = Duration.ofSeconds(2); // the client reads a blocking reply for 2.5 s
        try (RedisDelayQueue<String> q = RedisDelayQueue.builder(CLIENT, name, Codec.utf8())
                .shards(3)
                .shardBy(Function.identity())
                .blockTimeout(block)
                .build()) {
            // due soon on shard 2, while a new queue object's receive would otherwise wait on shard 0
            Instant start = Instant.now();
            MessageId id = q.schedule(keyOfShard(2, 3), Duration.ofMillis(200));

            Delivery<String> d = q.poll(30, SECONDS);

            assertThat(d).isNotNull();
            assertThat(d.id()).isEqualTo(id);
            Duration took = Duration.between(start, Instant.now());
            assertThat(took).as("never early").isGreaterThanOrEqualTo(Duration.ofMillis(200));
            assertThat(took)
                    .as("not held for the %s block timeout on another shard", block)
                    .isLessThan(Duration.ofMillis(1200));
        }
    }

    @Test
    void consumers_neverGetAMessageBeforeItIsDue_onAnyShard() throws Exception {
        try (RedisDelayQueue<String> q = sharded(unique("never-early"), 4).build()) {
            List<Instant> due = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                Instant at = Instant.now().plusMillis(100 + 40L * i);
                due.add(at);
                q.scheduleAt(String.valueOf(i), at);
            }
            List<String> got = new ArrayList<>();

            while (got.size() < 24) {
                for (Delivery<String> d : q.pollBatch(5, 5, SECONDS)) {
                    Instant now = Instant.now();
                    assertThat(now)
                            .as("message %s", d.payload())
                            .isAfterOrEqualTo(due.get(Integer.parseInt(d.payload())));
                    got.add(d.payload());
                    d.ack();
                }
            }
            assertThat(got).hasSize(24).doesNotHaveDuplicates();
        }
    }

    @Test
    void statsPeekAndDeadLetters_coverEveryShard() throws Exception {
        try (RedisDelayQueue<String> q = sharded(unique("cover"), 3).build()) {
            List<MessageId> ids = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                ids.add(q.schedule("m" + i, Duration.ofMinutes(10 - i)));
            }
            q.send("now");

            assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 6, 0));
            List<WaitingMessage<String>> peeked = q.peek(10);
            assertThat(peeked)
                    .extracting(WaitingMessage::payload)
                    .containsExactly("now", "m5", "m4", "m3", "m2", "m1", "m0");
            assertThat(q.peek(3)).extracting(WaitingMessage::payload).containsExactly("now", "m5", "m4");

            Delivery<String> d = q.poll(5, SECONDS);
            assertThat(d.deadLetter("no")).isTrue();
            for (int i = 0; i < 3; i++) {
                assertThat(q.cancel(ids.get(i))).isTrue();
            }
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 3, 1));
            List<DeadLetter<String>> dead = q.deadLetters().list(5);
            assertThat(dead).extracting(DeadLetter::payload).containsExactly("now");
            assertThat(q.deadLetters().find(d.id())).isPresent();
            assertThat(q.deadLetters().requeue(d.id())).isTrue();
            assertThat(q.poll(5, SECONDS).payload()).isEqualTo("now");
        }
    }

    @Test
    void ackAll_acksTheDeliveriesOfEveryShard() throws Exception {
        try (RedisDelayQueue<String> q = sharded(unique("ackall"), 3).build()) {
            q.sendAll(List.of("a", "b"));
            q.sendAll(List.of("c", "d"));
            q.sendAll(List.of("e", "f"));
            List<Delivery<String>> taken = new ArrayList<>();
            while (taken.size() < 6) {
                taken.addAll(q.pollBatch(6 - taken.size(), 5, SECONDS));
            }
            assertThat(taken).extracting(d -> shardOf(d.id())).containsOnly(0, 1, 2);

            assertThat(q.ackAll(taken)).isEqualTo(6);

            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
        }
    }

    // ---- the number of shards, recorded

    /** How the refusal begins; {@code RedisListQueueShardsTest} checks all of it. */
    private static String refusal(String name, int stored, int built) {
        return "queue " + name + " is stored in " + (stored == 1 ? "1 shard (unsharded)" : stored + " shards")
                + "; this object was built with shards(" + built + "): build it with shards(" + stored + ")";
    }

    @ParameterizedTest(name = "stored in {0}, built with {1}")
    @CsvSource({"2, 3", "3, 2", "3, 1", "1, 3"})
    void anObjectBuiltWithAnotherNumberOfShards_refusesEveryCall_namingBoth_andChangesNothing(int stored, int built)
            throws Exception {
        String name = unique("reshard");
        List<MessageId> chosen = new ArrayList<>();
        List<MessageId> generated = new ArrayList<>();
        MessageId dead;
        try (RedisDelayQueue<String> q = sharded(name, stored).build()) {
            for (int i = 0; i < 6; i++) {
                chosen.add(MessageId.of("order-" + i));
                assertThat(q.schedule(chosen.get(i), "chosen " + i, Duration.ofMinutes(5)))
                        .isTrue();
                generated.add(q.schedule("generated " + i, Duration.ofMinutes(5)));
            }
            dead = q.send("dies");
            Delivery<String> d = q.poll(5, SECONDS);
            assertThat(d.id()).isEqualTo(dead);
            assertThat(d.deadLetter("for the test")).isTrue();
        }
        String everyKey = "queuekit:{" + name + "[}~]*";
        Map<String, String> before = RedisClients.dumpKeys(CLIENT, everyKey);

        try (RedisDelayQueue<String> wrong = sharded(name, built).build()) {
            Instant later = Instant.now().plusSeconds(300);
            List<ThrowingCallable> calls = List.of(
                    () -> wrong.schedule(chosen.get(0), "again", Duration.ofMinutes(1)),
                    () -> wrong.scheduleAt(chosen.get(1), "again", later),
                    () -> wrong.cancel(chosen.get(2)),
                    () -> wrong.cancel(generated.get(0)),
                    () -> wrong.send("x"),
                    () -> wrong.sendAll(List.of("x", "y")),
                    () -> wrong.schedule("x", Duration.ofMinutes(1)),
                    () -> wrong.scheduleAt("x", later),
                    () -> wrong.scheduleAll(List.of("x", "y"), Duration.ofMinutes(1)),
                    () -> wrong.scheduleEach(List.of(Scheduled.at("x", later))),
                    wrong::poll,
                    () -> wrong.poll(100, MILLISECONDS),
                    () -> wrong.pollBatch(10, 100, MILLISECONDS),
                    wrong::stats,
                    () -> wrong.peek(10),
                    () -> wrong.deadLetters().list(10),
                    () -> wrong.deadLetters().find(dead),
                    () -> wrong.deadLetters().requeue(dead),
                    () -> wrong.deadLetters().purge());
            for (ThrowingCallable call : calls) {
                assertThatThrownBy(call)
                        .isInstanceOf(QueueException.class)
                        .isNotInstanceOf(TransportException.class)
                        .hasMessageStartingWith(refusal(name, stored, built));
            }
        }

        assertThat(RedisClients.dumpKeys(CLIENT, everyKey))
                .as("every key as it was")
                .isEqualTo(before);
        try (RedisDelayQueue<String> q = sharded(name, stored).build()) {
            assertThat(q.schedule(chosen.get(0), "again", Duration.ofMinutes(1)))
                    .as("stored already")
                    .isFalse();
            for (MessageId id : chosen) {
                assertThat(q.cancel(id)).as("cancel %s", id).isTrue();
            }
            for (MessageId id : generated) {
                assertThat(q.cancel(id)).as("cancel %s", id).isTrue();
            }
            assertThat(q.deadLetters().requeue(dead)).isTrue();
            assertThat(q.poll(5, SECONDS).id()).isEqualTo(dead);
        }
    }

    @Test
    void aRefusedObject_worksOnceTheQueueIsDrained_andItsRecordDeleted() throws Exception {
        String name = unique("reshard-drained");
        String record = "queuekit:{" + name + "}:shards";
        try (RedisDelayQueue<String> three = sharded(name, 3).build();
                RedisDelayQueue<String> one = sharded(name, 1).build()) {
            MessageId id = MessageId.of("invoice-1");
            assertThat(three.schedule(id, "a", Duration.ofMinutes(5))).isTrue();
            assertThatThrownBy(() -> one.schedule(id, "a", Duration.ofMinutes(5)))
                    .hasMessageStartingWith(refusal(name, 3, 1));

            assertThat(three.cancel(id)).isTrue();
            CLIENT.del(record);

            assertThat(one.schedule(id, "a", Duration.ofMinutes(5)))
                    .as("checked again, after its failure")
                    .isTrue();
            assertThat(CLIENT.get(record)).isEqualTo("1");
            assertThat(one.cancel(id)).isTrue();
        }
    }

    @Test
    void twoObjectsRecordingDifferentNumbersAtOnce_oneWins_andTheOtherIsRefused() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20; round++) {
                String name = unique("race");
                MessageId id = MessageId.of("only-once");
                try (RedisDelayQueue<String> one = sharded(name, 1).build();
                        RedisDelayQueue<String> two = sharded(name, 2).build()) {
                    CountDownLatch go = new CountDownLatch(1);
                    Map<Integer, Throwable> refused = new ConcurrentHashMap<>();
                    List<Future<Boolean>> schedules = new ArrayList<>();
                    for (RedisDelayQueue<String> q : List.of(one, two)) {
                        int shards = q == one ? 1 : 2;
                        schedules.add(threads.submit(() -> {
                            go.await();
                            try {
                                return q.schedule(id, "by " + shards, Duration.ofMinutes(5));
                            } catch (QueueException e) {
                                refused.put(shards, e);
                                return false;
                            }
                        }));
                    }
                    go.countDown();
                    boolean byOne = schedules.get(0).get(10, SECONDS);
                    boolean byTwo = schedules.get(1).get(10, SECONDS);

                    int winner = Integer.parseInt(CLIENT.get("queuekit:{" + name + "}:shards"));
                    assertThat(winner == 1 ? byOne : byTwo)
                            .as("the winner's schedule")
                            .isTrue();
                    assertThat(winner == 1 ? byTwo : byOne)
                            .as("the other's schedule")
                            .isFalse();
                    assertThat(refused).containsOnlyKeys(3 - winner);
                    assertThat(refused.get(3 - winner)).hasMessageStartingWith(refusal(name, winner, 3 - winner));
                    assertThat((winner == 1 ? one : two).peek(10))
                            .extracting(WaitingMessage::payload)
                            .as("stored once")
                            .containsExactly("by " + winner);
                }
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void onAThreeMasterCluster_threeShards_landOnePerMaster() {
        RedisCluster cluster = RedisCluster.shared();
        String name = unique("spread");
        try (RedisClusterClient client = cluster.client();
                RedisDelayQueue<String> q = RedisDelayQueue.builder(client, name, Codec.utf8())
                        .shards(3)
                        .build()) {
            for (int i = 0; i < 3; i++) {
                q.schedule("m" + i, Duration.ofMinutes(1));
            }

            Set<Integer> ports = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                String ready =
                        RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).shard(i, 3).key("ready");
                assertThat(client.zcard(ready)).as("shard %s", i).isEqualTo(1);
                ports.add(cluster.masterFor(ready).port());
            }
            assertThat(ports).as("the masters holding the shards").hasSize(3);
        }
    }
}

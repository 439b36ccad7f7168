package io.queuekit.redis.list;

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
import io.queuekit.Semantics;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.TransportException;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.internal.Sharding;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisCluster;
import io.queuekit.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;

/**
 * A list queue built with {@code shards(n)}: what is specific to its shards, beyond the contract.
 * Runs alone: some tests bound how late a message comes, and some wait for a blocked client in the
 * shared server's CLIENT LIST, which another class's consumer would satisfy.
 */
@Isolated
@Timeout(60)
class RedisListQueueShardsTest {
    private static final RedisClient CLIENT = RedisClients.create(RedisServer.shared());

    @AfterAll
    static void closeClient() {
        CLIENT.close();
    }

    private static RedisListQueue.Builder<String> sharded(String name, int shards) {
        return RedisListQueue.builder(CLIENT, name, Codec.utf8())
                .shards(shards)
                .visibilityTimeout(Queues.LEASE)
                .blockTimeout(Queues.BLOCK);
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

    private static String clientList() {
        return new String(
                (byte[]) CLIENT.executeCommand(new CommandArguments(Protocol.Command.CLIENT).addObjects("LIST")),
                StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 257})
    void shards_outOfRange_isRefused_namingShards(int shards) {
        RedisListQueue.Builder<String> b = RedisListQueue.builder(CLIENT, "refused", Codec.utf8());

        assertThatThrownBy(() -> b.shards(shards))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shards must be 1 to 256: " + shards);
    }

    @Test
    void shardBy_null_isRefused() {
        assertThatThrownBy(() ->
                        RedisListQueue.builder(CLIENT, "refused", Codec.utf8()).shardBy(null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void oneShard_keepsTodaysKeys_andOrder() throws Exception {
        String name = Queues.unique("one-shard");
        try (RedisListQueue<String> q = sharded(name, 1).shardBy(p -> p).build()) {
            MessageId id = q.send("a");

            assertThat(CLIENT.keys("queuekit:{" + name + "*"))
                    .containsExactlyInAnyOrder(
                            Queues.key(name, "ready"), Queues.key(name, "layout"), Queues.key(name, "shards"));
            assertThat(id.value()).doesNotContain("~");
            assertThat(q.semantics().ordering()).isEqualTo(Semantics.Ordering.FIFO);
        }
    }

    @Test
    void shards_keepEachShardUnderATagOfItsOwn_andIdsNameTheirShard() {
        String name = Queues.unique("tags");
        try (RedisListQueue<String> q = sharded(name, 3).build()) {
            List<MessageId> ids = List.of(q.send("a"), q.send("b"), q.send("c"));

            Set<String> tags = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                tags.add(
                        RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).shard(i, 3).tag());
                assertThat(CLIENT.llen(RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name)
                                .shard(i, 3)
                                .key("ready")))
                        .as("shard %s", i)
                        .isEqualTo(1);
            }
            assertThat(tags).hasSize(3).allSatisfy(t -> assertThat(t).startsWith(name + "~"));
            assertThat(CLIENT.exists(Queues.key(name, "ready")))
                    .as("nothing under the unsharded tag")
                    .isFalse();
            assertThat(ids)
                    .extracting(MessageId::value)
                    .allSatisfy(v -> assertThat(v).matches("@.*~[0-2]"));
            assertThat(ids.stream()
                            .map(id -> id.value().substring(id.value().length() - 1))
                            .collect(Collectors.toSet()))
                    .containsExactlyInAnyOrder("0", "1", "2");
            assertThat(q.semantics())
                    .isEqualTo(new Semantics(
                            "redis-list", Guarantee.AT_LEAST_ONCE, Semantics.Ordering.NONE, true, false, false));
            assertThat(q).hasToString("RedisListQueue[redis-list " + name + ", AT_LEAST_ONCE, 3 shards]");
        }
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void anIdleConsumerWaitingOnOneShard_getsAMessageSentToAnother_withinAboutOneBlockTimeout(Guarantee guarantee)
            throws Exception {
        String name = Queues.unique("idle");
        Duration block = Duration.ofSeconds(2);
        try (RedisListQueue<String> receiver = RedisListQueue.builder(CLIENT, name, Codec.utf8())
                        .shards(3)
                        .guarantee(guarantee)
                        .blockTimeout(block)
                        .build();
                RedisListQueue<String> sender = RedisListQueue.builder(CLIENT, name, Codec.utf8())
                        .shards(3)
                        .guarantee(guarantee)
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
            String blocking = guarantee == Guarantee.AT_LEAST_ONCE ? "cmd=blmove" : "cmd=brpop";
            await().atMost(Duration.ofSeconds(10)).until(() -> clientList().contains(blocking));
            long sent = System.nanoTime();

            MessageId id = sender.send(keyOfShard(2, 3));

            assertThat(id.value()).endsWith("~2");
            await().atMost(block.multipliedBy(3)).until(polled::isDone);
            assertThat(polled.get().id()).isEqualTo(id);
            assertThat(Duration.ofNanos(System.nanoTime() - sent))
                    .as("well before the poll's 60 s")
                    .isLessThan(block.multipliedBy(3));
        }
    }

    @Test
    void aConsumerJustServedByOneShard_takesAMessageWaitingOnAnother_wellWithinABlockTimeout() throws Exception {
        String name = Queues.unique("home");
        Duration block = Duration.ofSeconds(2); // within the client's blocking socket timeout
        try (RedisListQueue<String> q = RedisListQueue.builder(CLIENT, name, Codec.utf8())
                .shards(3)
                .blockTimeout(block)
                .shardBy(Function.identity())
                .build()) {
            q.send(keyOfShard(0, 3));
            Delivery<String> first = q.poll();
            assertThat(first.id().value()).endsWith("~0");
            first.ack();
            MessageId other = q.send(keyOfShard(2, 3));
            long start = System.nanoTime();

            // it goes back to shard 0 first, where no message waits, but only briefly
            Delivery<String> next = q.poll(60, SECONDS);

            assertThat(next.id()).isEqualTo(other);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("far less than a block timeout")
                    .isLessThan(block.dividedBy(2));
        }
    }

    @Test
    void shardBy_oneConsumer_getsEachKeysMessagesInSendOrder_whileKeysInterleave() throws Exception {
        Random random = new Random(42);
        try (RedisListQueue<String> q = sharded(Queues.unique("keyed"), 3)
                .shardBy(p -> p.substring(0, p.indexOf(':')))
                .build()) {
            List<String> sent = new ArrayList<>();
            int[] next = new int[5];
            while (sent.size() < 300) {
                List<String> batch = new ArrayList<>();
                for (int i = random.nextInt(4); i >= 0; i--) {
                    int k = random.nextInt(5);
                    batch.add("k" + k + ":" + next[k]++);
                }
                if (batch.size() == 1) {
                    q.send(batch.get(0));
                } else {
                    q.sendAll(batch);
                }
                sent.addAll(batch);
            }

            List<String> got = new ArrayList<>();
            while (got.size() < sent.size()) {
                List<Delivery<String>> ds = q.pollBatch(7, 5, SECONDS);
                assertThat(ds).as("deliveries after %s", got.size()).isNotEmpty();
                ds.forEach(d -> got.add(d.payload()));
                q.ackAll(ds);
            }

            assertThat(got).containsExactlyInAnyOrderElementsOf(sent);
            for (int k = 0; k < 5; k++) {
                String key = "k" + k + ":";
                assertThat(got.stream().filter(p -> p.startsWith(key)).collect(Collectors.toList()))
                        .as("key k%s", k)
                        .containsExactlyElementsOf(
                                sent.stream().filter(p -> p.startsWith(key)).collect(Collectors.toList()));
            }
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
        }
    }

    @Test
    void shardBy_aNullKey_isRefused_storingNothing() {
        try (RedisListQueue<String> q = sharded(Queues.unique("null-key"), 3)
                .shardBy(p -> p.isEmpty() ? null : p)
                .build()) {
            assertThatThrownBy(() -> q.sendAll(List.of("a", "b", "")))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("shardBy");

            assertThat(q.stats().ready()).isZero();
        }
    }

    @Test
    void sendAll_withoutAKey_storesTheWholeBatchInOneShard() {
        String name = Queues.unique("batch");
        try (RedisListQueue<String> q = sharded(name, 3).build()) {
            List<MessageId> ids = q.sendAll(List.of("a", "b", "c", "d"));

            assertThat(ids.stream()
                            .map(id -> id.value().substring(id.value().indexOf('~')))
                            .distinct())
                    .hasSize(1);
            assertThat(q.stats().ready()).isEqualTo(4);
        }
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void statsPeekAndDeadLetters_coverEveryShard(Guarantee guarantee) throws Exception {
        try (RedisListQueue<String> q =
                sharded(Queues.unique("cover"), 3).guarantee(guarantee).build()) {
            List<MessageId> ids = new ArrayList<>();
            for (String p : List.of("a", "b", "c", "d", "e", "f")) {
                ids.add(q.send(p)); // two in each shard
            }

            assertThat(q.stats()).isEqualTo(new QueueStats(6, 0, 0, 0));
            List<WaitingMessage<String>> peeked = q.peek(10);
            assertThat(peeked).extracting(WaitingMessage::id).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(peeked).extracting(WaitingMessage::enqueuedAt).isSorted();
            assertThat(q.peek(4)).hasSize(4);

            List<Delivery<String>> taken = q.pollBatch(6, 5, SECONDS);
            while (taken.size() < 6) {
                taken.addAll(q.pollBatch(6 - taken.size(), 5, SECONDS));
            }
            for (Delivery<String> d : taken) {
                assertThat(d.deadLetter("no " + d.payload())).isTrue();
            }

            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 6));
            assertThat(q.deadLetters().size()).isEqualTo(6);
            List<DeadLetter<String>> dead = q.deadLetters().list(10);
            assertThat(dead).extracting(DeadLetter::id).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(dead).extracting(DeadLetter::deadAt).isSorted();
            assertThat(q.deadLetters().list(2)).hasSize(2);
            assertThat(q.deadLetters().find(ids.get(4)).orElseThrow().reason()).isEqualTo("no e");
            assertThat(q.deadLetters().find(MessageId.of("@nothing~1"))).isEmpty();

            assertThat(q.deadLetters().requeue(ids.get(1))).isTrue();
            assertThat(q.deadLetters().purge(ids.get(2))).isTrue();
            assertThat(q.deadLetters().purge(ids.get(2))).isFalse();
            assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 4));
            assertThat(q.poll(5, SECONDS).id()).isEqualTo(ids.get(1));

            assertThat(q.deadLetters().requeueAll()).isEqualTo(4);
            assertThat(q.stats().ready()).isEqualTo(4);
            List<Delivery<String>> again = new ArrayList<>();
            while (again.size() < 4) {
                again.addAll(q.pollBatch(4 - again.size(), 5, SECONDS));
            }
            again.forEach(d -> d.deadLetter("again"));
            assertThat(q.deadLetters().purge()).isEqualTo(4);
            assertThat(q.deadLetters().size()).isZero();
        }
    }

    @Test
    void ackAll_acksTheDeliveriesOfEveryShard() throws Exception {
        try (RedisListQueue<String> q = sharded(Queues.unique("ackall"), 3).build()) {
            for (String p : List.of("a", "b", "c", "d", "e", "f")) {
                q.send(p);
            }
            List<Delivery<String>> taken = new ArrayList<>();
            while (taken.size() < 6) {
                taken.addAll(q.pollBatch(6 - taken.size(), 5, SECONDS));
            }
            assertThat(taken)
                    .extracting(d -> d.id().value().substring(d.id().value().indexOf('~')))
                    .containsOnly("~0", "~1", "~2");

            assertThat(q.ackAll(taken)).isEqualTo(6);

            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
            assertThat(q.ackAll(taken)).as("settled already").isZero();
        }
    }

    // ---- the number of shards, recorded

    /** Every key of the queue, under its unsharded tag and its shards' tags, with its DUMP. */
    private static Map<String, String> dump(String name) {
        return RedisClients.dumpKeys(CLIENT, "queuekit:{" + name + "[}~]*");
    }

    private static String refusal(String name, int stored, int built) {
        return "queue " + name + " is stored in " + (stored == 1 ? "1 shard (unsharded)" : stored + " shards")
                + "; this object was built with shards(" + built + "): build it with shards(" + stored + "), or drain"
                + " the queue (ready, in flight, delayed and dead messages) and delete queuekit:{" + name + "}:shards"
                + " first";
    }

    /** Takes and acks everything ready, in every shard; the ids taken. */
    private static List<MessageId> drain(RedisListQueue<String> q) throws InterruptedException {
        List<MessageId> got = new ArrayList<>();
        for (List<Delivery<String>> ds; !(ds = q.pollBatch(100, 300, MILLISECONDS)).isEmpty(); ) {
            ds.forEach(d -> got.add(d.id()));
            q.ackAll(ds);
        }
        return got;
    }

    @ParameterizedTest(name = "stored in {0}, built with {1}")
    @CsvSource({"2, 3", "3, 2", "3, 1", "1, 3"})
    void anObjectBuiltWithAnotherNumberOfShards_refusesEveryCall_namingBoth_andChangesNothing(int stored, int built)
            throws Exception {
        String name = Queues.unique("reshard");
        List<MessageId> ids = new ArrayList<>();
        MessageId dead;
        try (RedisListQueue<String> q = sharded(name, stored).build()) {
            for (int i = 0; i < 6; i++) {
                ids.add(q.send("m" + i));
            }
            Delivery<String> d = q.poll(5, SECONDS);
            dead = d.id();
            assertThat(d.deadLetter("for the test")).isTrue();
        }
        Map<String, String> before = dump(name);

        for (Guarantee guarantee : Guarantee.values()) {
            try (RedisListQueue<String> wrong =
                    sharded(name, built).guarantee(guarantee).build()) {
                List<ThrowingCallable> calls = List.of(
                        () -> wrong.send("x"),
                        () -> wrong.sendAll(List.of("x", "y")),
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
                            .as("%s", guarantee)
                            .isInstanceOf(QueueException.class)
                            .isNotInstanceOf(TransportException.class)
                            .hasMessage(refusal(name, stored, built));
                }
            }
        }

        assertThat(dump(name)).as("every key as it was").isEqualTo(before);
        try (RedisListQueue<String> q = sharded(name, stored).build()) {
            assertThat(q.deadLetters().find(dead)).isPresent();
            assertThat(q.deadLetters().requeue(dead)).isTrue();
            assertThat(drain(q)).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    @Test
    void aRefusedObject_worksOnceTheQueueIsDrained_andItsRecordDeleted_andRecordsItsOwnNumber() throws Exception {
        String name = Queues.unique("reshard-drained");
        try (RedisListQueue<String> two = sharded(name, 2).build();
                RedisListQueue<String> three = sharded(name, 3).build()) {
            List<MessageId> ids = List.of(two.send("a"), two.send("b"));
            assertThatThrownBy(() -> three.send("c")).hasMessage(refusal(name, 2, 3));

            assertThat(drain(two)).containsExactlyInAnyOrderElementsOf(ids);
            CLIENT.del(Queues.key(name, "shards"));
            MessageId c = three.send("c"); // checked again, after its failure

            assertThat(CLIENT.get(Queues.key(name, "shards"))).isEqualTo("3");
            assertThat(c.value()).matches("@.*~[0-2]");
            assertThat(three.poll(5, SECONDS).id()).isEqualTo(c);
            try (RedisListQueue<String> twoAgain = sharded(name, 2).build()) {
                assertThatThrownBy(twoAgain::stats).hasMessage(refusal(name, 3, 2));
            }
        }
    }

    @Test
    void aCheckThatFailedWhileRedisWasDown_isMadeAgainAtTheNextCall() throws Exception {
        String name = Queues.unique("down");
        try (RedisServer server = RedisServer.builder().requireProcessControl().start();
                RedisClient client = RedisClients.create(server);
                RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                        .shards(2)
                        .build()) {
            server.kill();
            assertThatThrownBy(() -> q.send("a"))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("send failed"); // the check is part of the call that needed it
            server.restart();

            await().atMost(Duration.ofSeconds(10))
                    .ignoreException(TransportException.class)
                    .until(() -> q.stats() != null);

            assertThat(client.get(Queues.key(name, "shards"))).isEqualTo("2");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"three", "0", "257"})
    void aRecordThatIsNoNumberOfShards_isRefused_sayingWhatToDo(String recorded) {
        String name = Queues.unique("garbled");
        CLIENT.set(Queues.key(name, "shards"), recorded);
        try (RedisListQueue<String> q = sharded(name, 3).build()) {
            assertThatThrownBy(() -> q.send("a"))
                    .isInstanceOf(QueueException.class)
                    .hasMessage("queue " + name + ": queuekit:{" + name + "}:shards holds '" + recorded
                            + "', not a number of shards from 1 to 256: set it to the number the queue is stored in,"
                            + " or delete it if the queue is empty");
            assertThat(CLIENT.get(Queues.key(name, "shards"))).isEqualTo(recorded);
        }
    }

    @Test
    void aQueueObject_checksTheNumberOnce_atItsFirstCall() throws Exception {
        String name = Queues.unique("checked-once");
        try (RedisListQueue<String> q = sharded(name, 3).build()) {
            assertThat(CLIENT.exists(Queues.key(name, "shards")))
                    .as("nothing recorded by build()")
                    .isFalse();
            q.stats();
            assertThat(CLIENT.get(Queues.key(name, "shards"))).isEqualTo("3");
            CLIENT.del(Queues.key(name, "shards"));

            MessageId id = q.send("a");
            q.poll(5, SECONDS).deadLetter("dead");
            q.deadLetters().requeue(id);
            q.peek(10);
            q.poll(5, SECONDS).ack();

            assertThat(CLIENT.exists(Queues.key(name, "shards")))
                    .as("not checked again")
                    .isFalse();
        }
    }

    @Test
    void twoObjectsRecordingDifferentNumbersAtOnce_oneWins_andTheOtherIsRefused() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20; round++) {
                String name = Queues.unique("race");
                try (RedisListQueue<String> two = sharded(name, 2).build();
                        RedisListQueue<String> three = sharded(name, 3).build()) {
                    CountDownLatch go = new CountDownLatch(1);
                    Future<MessageId> byTwo = threads.submit(firstSend(go, two));
                    Future<MessageId> byThree = threads.submit(firstSend(go, three));
                    go.countDown();
                    Throwable twoFailed = failure(byTwo);
                    Throwable threeFailed = failure(byThree);

                    int winner = Integer.parseInt(CLIENT.get(Queues.key(name, "shards")));
                    assertThat(winner == 2 ? twoFailed : threeFailed)
                            .as("the winner's send")
                            .isNull();
                    assertThat(winner == 2 ? threeFailed : twoFailed)
                            .as("the other's send")
                            .isInstanceOf(QueueException.class)
                            .hasMessage(refusal(name, winner, 5 - winner));
                    assertThat(CLIENT.keys("queuekit:{" + name + "~*}:ready"))
                            .as("one message stored")
                            .hasSize(1);
                    assertThat((winner == 2 ? two : three).stats().ready()).isEqualTo(1);
                }
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** What {@code f} threw, or null if it returned. */
    private static Throwable failure(Future<?> f) throws Exception {
        try {
            f.get(10, SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static Callable<MessageId> firstSend(CountDownLatch go, RedisListQueue<String> q) {
        return () -> {
            go.await();
            return q.send("first");
        };
    }

    @Test
    void onAThreeMasterCluster_threeShards_landOnePerMaster() {
        RedisCluster cluster = RedisCluster.shared();
        String name = Queues.unique("spread");
        try (RedisClusterClient client = cluster.client();
                RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                        .shards(3)
                        .build()) {
            for (int i = 0; i < 3; i++) {
                q.send("m" + i);
            }

            Set<Integer> ports = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                String ready =
                        RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).shard(i, 3).key("ready");
                assertThat(client.llen(ready)).as("shard %s", i).isEqualTo(1);
                ports.add(cluster.masterFor(ready).port());
            }
            assertThat(ports).as("the masters holding the shards").hasSize(3);
            assertThat(cluster.masters()).hasSize(3);
        }
    }

    @Test
    void consume_handlesTheMessagesOfEveryShard() throws ExecutionException, InterruptedException {
        try (RedisListQueue<String> q = sharded(Queues.unique("consume"), 4).build()) {
            Set<String> got = java.util.concurrent.ConcurrentHashMap.newKeySet();
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                sent.add("m" + i);
                q.send("m" + i);
            }

            try (var s = q.consume(
                    d -> got.add(d.payload()),
                    io.queuekit.ConsumeOptions.builder()
                            .concurrency(2)
                            .pollTimeout(Duration.ofMillis(200))
                            .build())) {
                await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == sent.size());
            }

            assertThat(got).containsExactlyInAnyOrderElementsOf(sent);
            await().atMost(Duration.ofSeconds(5)).until(() -> q.stats().equals(new QueueStats(0, 0, 0, 0)));
            assertThat(q.poll(100, MILLISECONDS)).isNull();
        }
    }
}

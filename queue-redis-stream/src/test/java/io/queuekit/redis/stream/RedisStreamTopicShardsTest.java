package io.queuekit.redis.stream;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.MessageId;
import io.queuekit.Position;
import io.queuekit.QueueException;
import io.queuekit.Semantics;
import io.queuekit.TransportException;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.internal.Sharding;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisCluster;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;

/** A stream topic built with {@code shards(n)}: what is specific to its shards, beyond the contract. */
@Timeout(value = 60, unit = SECONDS)
@RedisServerTest(server = RedisServerTest.Server.PER_CLASS) // reads the server's slow log
class RedisStreamTopicShardsTest {
    private final RedisClient client;
    private final List<AutoCloseable> closeAfter = new ArrayList<>();

    RedisStreamTopicShardsTest(RedisClient client) {
        this.client = client;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeAfter) {
            c.close();
        }
    }

    private static String unique(String what) {
        return "shards-" + what + "-" + UUID.randomUUID();
    }

    private RedisStreamTopic.Builder<String> sharded(String name, int shards) {
        return RedisStreamTopic.builder(client, name, Codec.utf8()).shards(shards);
    }

    private <C extends AutoCloseable> C track(C c) {
        closeAfter.add(c);
        return c;
    }

    private static String stream(String name, int shard, int count) {
        return RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).shard(shard, count).key("stream");
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

    private static List<String> takeAndAck(ConsumerGroup<String> g, int n) throws InterruptedException {
        List<String> got = new ArrayList<>();
        while (got.size() < n) {
            Delivery<String> d = g.poll(5, SECONDS);
            assertThat(d).as("delivery %d of %d", got.size() + 1, n).isNotNull();
            got.add(d.payload());
            assertThat(d.ack()).isTrue();
        }
        return got;
    }

    @Test
    void oneShard_keepsTodaysKeys() {
        String name = unique("one");
        RedisStreamTopic<String> t = track(sharded(name, 1).build());
        track(t.group("g"));
        t.publish("m");

        assertThat(client.xlen("queuekit:{" + name + "}:stream")).isEqualTo(1);
        assertThat(client.keys("queuekit:{" + name + "~*")).isEmpty();
        assertThat(t.semantics().ordering()).isEqualTo(Semantics.Ordering.PUBLISH_ORDER);
    }

    @Test
    void shards_keepEachShardUnderATagOfItsOwn_andIdsNameTheirShard() throws Exception {
        String name = unique("tags");
        RedisStreamTopic<String> t = track(sharded(name, 3).build());
        ConsumerGroup<String> g = track(t.group("g"));
        List<MessageId> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ids.add(g.send("m" + i));
        }

        for (int s = 0; s < 3; s++) {
            assertThat(client.xlen(stream(name, s, 3))).as("shard %s", s).isEqualTo(2);
            assertThat(client.exists(RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name)
                            .shard(s, 3)
                            .key("g:g:inflight")))
                    .isFalse();
        }
        assertThat(client.exists("queuekit:{" + name + "}:stream")).isFalse();
        assertThat(client.get("queuekit:{" + name + "}:shards")).isEqualTo("3");
        assertThat(ids).allSatisfy(id -> assertThat(id.value()).matches("@\\d+-\\d+~[012]"));
        assertThat(t.semantics().ordering()).isEqualTo(Semantics.Ordering.NONE);
        assertThat(g.semantics().ordering()).isEqualTo(Semantics.Ordering.NONE);

        List<MessageId> delivered = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Delivery<String> d = g.poll(5, SECONDS);
            delivered.add(d.id());
            d.ack();
        }
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(t.size()).isEqualTo(6);
    }

    @Test
    void publishAll_withoutAKey_storesTheWholeBatchInOneShard() {
        String name = unique("batch");
        RedisStreamTopic<String> t = track(sharded(name, 3).build());
        track(t.group("g"));

        t.publishAll(List.of("a", "b", "c", "d"));

        List<Long> lengths = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            lengths.add(client.xlen(stream(name, s, 3)));
        }
        assertThat(lengths).containsExactlyInAnyOrder(4L, 0L, 0L);
    }

    @Test
    void shardBy_oneGroup_getsEachKeysMessagesInPublishOrder_whileKeysInterleave() throws Exception {
        String name = unique("keyed");
        RedisStreamTopic<String> t = track(RedisStreamTopic.builder(client, name, Codec.utf8())
                .shards(3)
                .shardBy(m -> m.substring(0, m.indexOf('-')))
                .build());
        ConsumerGroup<String> g = track(t.group("g"));
        List<String> keys = List.of(keyOfShard(0, 3), keyOfShard(1, 3), keyOfShard(2, 3), "k7", "k8");
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            List<String> batch = new ArrayList<>();
            for (String k : keys) {
                batch.add(k + "-" + i);
            }
            if (i % 2 == 0) {
                batch.forEach(t::publish);
            } else {
                t.publishAll(batch);
            }
            sent.addAll(batch);
        }

        List<String> got = takeAndAck(g, sent.size());

        assertThat(got).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(t.semantics().ordering()).isEqualTo(Semantics.Ordering.PER_KEY);
        for (String k : keys) {
            List<String> ofKey = got.stream().filter(m -> m.startsWith(k + "-")).toList();
            List<String> sentOfKey =
                    sent.stream().filter(m -> m.startsWith(k + "-")).toList();
            assertThat(ofKey).as("key %s", k).containsExactlyElementsOf(sentOfKey);
        }
        for (int s = 0; s < 3; s++) {
            assertThat(client.xlen(stream(name, s, 3))).as("shard %s", s).isPositive();
        }
    }

    @Test
    void aRetry_isClaimedWhenItFallsDue_notABlockTimeoutLater_whicheverShardHoldsIt() throws Exception {
        String name = unique("retry");
        RedisStreamTopic<String> t = track(RedisStreamTopic.builder(client, name, Codec.utf8())
                .shards(3)
                .shardBy(Function.identity())
                .blockTimeout(Duration.ofSeconds(2))
                .build());
        ConsumerGroup<String> g = track(t.group("g"));

        for (int s = 0; s < 3; s++) {
            t.publish(keyOfShard(s, 3));
            Delivery<String> d = g.poll(5, SECONDS);
            assertThat(d.retry(Duration.ofMillis(100))).isTrue();
            long began = System.nanoTime();

            Delivery<String> again = g.poll(10, SECONDS);

            long tookMillis = (System.nanoTime() - began) / 1_000_000;
            assertThat(again).isNotNull();
            assertThat(again.attempt()).isEqualTo(2);
            assertThat(again.ack()).isTrue();
            // the receive waits on the shard whose retry its claims said falls due first
            assertThat(tookMillis).as("shard %s: ms until the retry came", s).isLessThan(1_500);
        }
    }

    @Test
    void deadLetters_ofEveryShard_areListedFound_andRequeuedToTheirShard_byTheirIds() throws Exception {
        String name = unique("dead");
        RedisStreamTopic<String> t = track(sharded(name, 3).build());
        ConsumerGroup<String> g = track(t.group("g"));
        for (int i = 0; i < 3; i++) {
            t.publish("m" + i);
        }
        Map<MessageId, String> buried = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            Delivery<String> d = g.poll(5, SECONDS);
            buried.put(d.id(), d.payload());
            assertThat(d.deadLetter("test")).isTrue();
        }

        List<DeadLetter<String>> listed = g.deadLetters().list(10);
        assertThat(listed).extracting(DeadLetter::id).containsExactlyInAnyOrderElementsOf(buried.keySet());
        assertThat(g.info()).isEqualTo(new GroupInfo("g", 0, 0, 3, 0, false));
        for (MessageId id : buried.keySet()) {
            assertThat(g.deadLetters().find(id))
                    .hasValueSatisfying(dl -> assertThat(dl.payload()).isEqualTo(buried.get(id)));
        }
        MessageId first = buried.keySet().iterator().next();
        assertThat(g.deadLetters().requeue(first)).isTrue();

        Delivery<String> again = g.poll(5, SECONDS);
        assertThat(again.id()).isEqualTo(first);
        assertThat(again.payload()).isEqualTo(buried.get(first));
        assertThat(again.ack()).isTrue();
        assertThat(g.deadLetters().size()).isEqualTo(2);
        MessageId unknownShard = MessageId.of(first.value().replaceAll("~\\d$", "~9"));
        assertThat(g.deadLetters().find(unknownShard)).isEmpty();
    }

    @Test
    void newGroup_afterAnId_startsAfterItOnItsShard_andAtItsTimeOnTheOthers() throws Exception {
        String name = unique("after");
        RedisStreamTopic<String> t = track(sharded(name, 3).build());
        ConsumerGroup<String> first = track(t.group("first"));
        first.send("before");
        first.send("before, too");
        first.send("before, three");
        Thread.sleep(5); // the topic stamps with the server's clock, to the millisecond: let it move
        MessageId one = first.send("one");
        List<String> after = List.of("two", "three", "four");
        after.forEach(first::send);

        ConsumerGroup<String> g = track(t.group("g", Position.after(one)));

        assertThat(takeAndAck(g, 3)).containsExactlyInAnyOrderElementsOf(after);
        assertThat(g.poll()).isNull();
        String unsuffixed = one.value().substring(0, one.value().indexOf('~'));
        assertThatThrownBy(() -> t.group("h", Position.after(MessageId.of(unsuffixed))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 shards");
        assertThat(t.groups()).extracting(GroupInfo::name).containsExactly("first", "g");
    }

    @Test
    void aGroupOnSomeShardsOnly_isCompleted_byTheNextGroupCall() throws Exception {
        String name = unique("half");
        RedisStreamTopic<String> t = track(sharded(name, 3).build());
        track(t.group("g"));
        // as a crash between two shards' creations leaves it
        client.xgroupDestroy(stream(name, 2, 3), "g");
        assertThat(t.groups())
                .singleElement()
                .satisfies(i -> assertThat(i.name()).isEqualTo("g"));

        ConsumerGroup<String> g = track(t.group("g"));
        for (int i = 0; i < 3; i++) {
            t.publish("m" + i);
        }

        assertThat(takeAndAck(g, 3)).containsExactlyInAnyOrder("m0", "m1", "m2");
        assertThat(g.info().lag()).isZero();
    }

    /**
     * A deleteGroup of another process marks the group on every shard before it destroys any; a
     * group(name) while it runs is refused, so the group is never left on some shards only, and
     * once the deletion ended, group(name) creates it on every shard.
     */
    @Test
    void aGroupOpenedWhileAnotherProcessDeletesIt_isRefused_andAfterwardsKeptOnEveryShard() throws Exception {
        String name = unique("delete-race");
        RedisStreamTopic<String> a =
                track(sharded(name, 3).shardBy(Function.identity()).build());
        RedisStreamTopic<String> c =
                track(sharded(name, 3).shardBy(Function.identity()).build());
        track(a.group("g"));
        // a.deleteGroup("g") as it runs: marks on every shard, then shard 0, shard 1, ...
        List<GroupAdmin.Delete> deletion = a.admin("g").delete;
        deletion.forEach(d -> d.mark("g"));
        assertThat(deletion.get(0).keepingMark("g")).isTrue();
        assertThat(deletion.get(1).keepingMark("g")).isTrue();
        // ... and c.group("g") before shard 2
        assertThatThrownBy(() -> c.group("g"))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("consumer group g of")
                .hasMessageContaining("is being deleted");
        assertThat(deletion.get(2).keepingMark("g")).isTrue();
        for (int i = 2; i >= 0; i--) {
            deletion.get(i).unmark("g");
        }
        assertThat(c.groups()).as("the refused group() left nothing").isEmpty();

        ConsumerGroup<String> g = track(c.group("g"));
        assertThat(c.publish(keyOfShard(0, 3))).isEqualTo(1);
        assertThat(c.publish(keyOfShard(2, 3)))
                .as("shard 2 keeps it for the group")
                .isEqualTo(1);
        assertThat(takeAndAck(g, 2)).containsExactlyInAnyOrder(keyOfShard(0, 3), keyOfShard(2, 3));
    }

    /**
     * A group(name) whose first shard came before another process's whole deletion and whose later
     * shards came after it finds, back on shard 0, that the group went there; it goes round again,
     * so the group ends on every shard.
     */
    @Test
    void aGroupOpenedAcrossAWholeDeletion_goesRoundAgain_andEndsOnEveryShard() throws Exception {
        String name = unique("delete-across");
        RedisStreamTopic<String> a =
                track(sharded(name, 3).shardBy(Function.identity()).build());
        RedisStreamTopic<String> c =
                track(sharded(name, 3).shardBy(Function.identity()).build());
        track(a.group("g"));
        List<GroupAdmin.Creation> creation = new ArrayList<>(c.admin("g").create);
        GroupAdmin.Creation shard1 = creation.get(1);
        int[] deletions = {0};
        creation.set(1, (group, start) -> {
            if (deletions[0]++ == 0) {
                assertThat(a.deleteGroup("g")).isTrue(); // after shard 0 found the group, before shard 1
            }
            return shard1.run(group, start);
        });
        List<StreamScripts.Start> starts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            starts.add(GroupTerms.start(Position.end(), i, 3));
        }

        GroupAdmin.create(creation, "g", starts);

        for (int i = 0; i < 3; i++) {
            assertThat(c.publish(keyOfShard(i, 3))).as("groups on shard %d", i).isEqualTo(1);
        }
        assertThat(deletions[0]).as("shard 1 visited in two rounds").isEqualTo(2);
        ConsumerGroup<String> g = track(c.group("g"));
        assertThat(takeAndAck(g, 3)).containsExactlyInAnyOrder(keyOfShard(0, 3), keyOfShard(1, 3), keyOfShard(2, 3));
    }

    /**
     * deleteGroup's three phases as the server ran them (its slow log, logging every command):
     * every shard marked in shard order before any shard's group goes, the marks removed in
     * reverse order.
     */
    @Test
    void deleteGroup_marksEveryShardFirst_andUnmarksInReverseOrder() {
        String name = unique("delete-phases");
        RedisStreamTopic<String> t = track(sharded(name, 3).build());
        track(t.group("g"));
        track(t.group("warm"));
        t.deleteGroup("warm"); // the server knows the script from then on: one command a step
        List<String> streams = List.of(stream(name, 0, 3), stream(name, 1, 3), stream(name, 2, 3));
        client.configSet("slowlog-log-slower-than", "0");
        List<String> ran = new ArrayList<>();
        try {
            client.slowlogReset();
            assertThat(t.deleteGroup("g")).isTrue();
            List<Object> log = new ArrayList<>((List<?>)
                    client.executeCommand(new CommandArguments(Protocol.Command.SLOWLOG).addObjects("GET", "1000")));
            java.util.Collections.reverse(log); // oldest first
            for (Object entry : log) {
                List<String> args = ((List<?>) ((List<?>) entry).get(3))
                        .stream()
                                .map(a -> new String((byte[]) a, java.nio.charset.StandardCharsets.UTF_8))
                                .toList();
                int shard = -1;
                for (int i = 0; i < 3; i++) {
                    if (args.contains(streams.get(i))) {
                        shard = i;
                    }
                }
                for (String mode : List.of("mark", "keep", "unmark")) {
                    if (shard >= 0 && args.contains(mode)) {
                        ran.add(mode + " " + shard);
                    }
                }
            }
        } finally {
            client.configSet("slowlog-log-slower-than", "10000");
        }

        assertThat(ran)
                .containsExactly(
                        "mark 0", "mark 1", "mark 2", "keep 0", "keep 1", "keep 2", "unmark 2", "unmark 1", "unmark 0");
    }

    /** A deletion that stopped after marking every shard: group(name) refuses until a deleteGroup finishes it. */
    @Test
    void aDeletionStoppedAfterMarking_refusesTheGroup_untilDeleteGroupFinishesIt() throws Exception {
        String name = unique("delete-stopped");
        RedisStreamTopic<String> t =
                track(sharded(name, 3).shardBy(Function.identity()).build());
        ConsumerGroup<String> old = track(t.group("g"));
        t.publish(keyOfShard(1, 3));
        t.admin("g").delete.forEach(d -> d.mark("g"));

        assertThatThrownBy(() -> t.group("g"))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("is being deleted")
                .hasMessageContaining("call deleteGroup again if one stopped midway");
        assertThatThrownBy(() -> old.poll(1, SECONDS))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("is being deleted");

        assertThat(t.deleteGroup("g")).isTrue();
        assertThat(client.hkeys(
                        RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).shard(0, 3).key("counts")))
                .noneMatch(f -> f.endsWith(":g"));
        ConsumerGroup<String> g = track(t.group("g"));
        for (int i = 0; i < 3; i++) {
            t.publish(keyOfShard(i, 3));
        }
        assertThat(takeAndAck(g, 3)).containsExactlyInAnyOrder(keyOfShard(0, 3), keyOfShard(1, 3), keyOfShard(2, 3));
    }

    /** replayFrom on a group missing on one shard moves no shard. */
    @Test
    void replayFrom_ofAGroupMissingOnAShard_replaysNone() throws Exception {
        String name = unique("replay-half");
        RedisStreamTopic<String> t =
                track(sharded(name, 3).shardBy(Function.identity()).build());
        ConsumerGroup<String> g = track(t.group("g"));
        t.publish(keyOfShard(0, 3));
        assertThat(takeAndAck(g, 1)).containsExactly(keyOfShard(0, 3));
        client.xgroupDestroy(stream(name, 2, 3), "g");

        assertThatThrownBy(() -> g.replayFrom(Position.beginning()))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("deleted");
        assertThat(client.xinfoGroups(stream(name, 0, 3))
                        .get(0)
                        .getLastDeliveredId()
                        .toString())
                .as("shard 0 was not replayed")
                .isNotEqualTo("0-0");
    }

    @Test
    void retentionByLength_isTheTopics_eachShardKeepingItsShare() {
        String name = unique("retention");
        RedisStreamTopic<String> t = track(sharded(name, 3).hardMaxLength(6).build());
        track(t.group("g"));

        for (int i = 0; i < 30; i++) {
            t.publish("m" + i);
        }

        assertThat(t.size()).isEqualTo(6);
        for (int s = 0; s < 3; s++) {
            assertThat(client.xlen(stream(name, s, 3))).as("shard %s", s).isEqualTo(2);
        }
        assertThat(t.groups())
                .singleElement()
                .satisfies(
                        i -> assertThat(i.missed()).as("summed over the shards").isEqualTo(24));
    }

    @ParameterizedTest(name = "stored in {0}, built with {1}")
    @CsvSource({"3, 2", "3, 1", "1, 3"})
    void anObjectBuiltWithAnotherNumberOfShards_refusesEveryCall_namingBoth_andStoresNothing(int stored, int built)
            throws Exception {
        String name = unique("reshard");
        MessageId id;
        try (RedisStreamTopic<String> t = sharded(name, stored).build()) {
            ConsumerGroup<String> g = t.group("g");
            id = g.send("m");
            g.poll(5, SECONDS).deadLetter("for the test");
            t.publish("waiting");
        }
        Map<String, String> before = RedisClients.dumpKeys(client, "queuekit:{" + name + "[}~]*");

        try (RedisStreamTopic<String> wrong = sharded(name, built).build()) {
            List<ThrowingCallable> calls = List.of(
                    () -> wrong.publish("x"),
                    () -> wrong.publishAll(List.of("x", "y")),
                    () -> wrong.group("g"),
                    () -> wrong.group("new", Position.beginning()),
                    wrong::groups,
                    wrong::size,
                    () -> wrong.deleteGroup("g"),
                    () -> wrong.subscribe(m -> {}));
            for (ThrowingCallable call : calls) {
                assertThatThrownBy(call)
                        .isInstanceOf(QueueException.class)
                        .isNotInstanceOf(TransportException.class)
                        .hasMessageContaining("is stored in " + (stored == 1 ? "1 shard" : stored + " shards"))
                        .hasMessageContaining("shards(" + built + ")");
            }
        }

        assertThat(RedisClients.dumpKeys(client, "queuekit:{" + name + "[}~]*"))
                .as("every key as it was")
                .isEqualTo(before);
        try (RedisStreamTopic<String> t = sharded(name, stored).build()) {
            ConsumerGroup<String> g = t.group("g");
            assertThat(g.deadLetters().find(id)).isPresent();
            assertThat(takeAndAck(g, 1)).containsExactly("waiting");
        }
    }

    @Test
    void onAThreeMasterCluster_threeShards_landOnePerMaster() throws Exception {
        RedisCluster cluster = RedisCluster.shared();
        String name = unique("spread");
        try (RedisClusterClient c = cluster.client();
                RedisStreamTopic<String> t = RedisStreamTopic.builder(c, name, Codec.utf8())
                        .shards(3)
                        .build()) {
            ConsumerGroup<String> g = t.group("g");
            for (int i = 0; i < 3; i++) {
                t.publish("m" + i);
            }

            Set<Integer> ports = new HashSet<>();
            for (int s = 0; s < 3; s++) {
                String key = stream(name, s, 3);
                assertThat(c.xlen(key)).as("shard %s", s).isEqualTo(1);
                ports.add(cluster.masterFor(key).port());
            }
            assertThat(ports).as("the masters holding the shards").hasSize(3);
            assertThat(cluster.masters()).hasSize(3);
            assertThat(takeAndAck(g, 3)).containsExactlyInAnyOrder("m0", "m1", "m2");
        }
    }
}

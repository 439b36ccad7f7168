package io.queuekit.redis.stream;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.Position;
import io.queuekit.Subscription;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamGroupInfo;

/**
 * What a claim and a publish cost as groups pile up (commands counted by the server, never
 * timed), the last-delivered id the scripts keep for the claim, and the lag of groups started at
 * a time or after an id.
 */
@Timeout(value = 120, unit = SECONDS)
@RedisServerTest(server = RedisServerTest.Server.PER_CLASS) // its own INFO commandstats
class RedisStreamGroupCostTest {
    private final RedisClient client;
    private final List<AutoCloseable> closeAfter = new ArrayList<>();

    RedisStreamGroupCostTest(RedisClient client) {
        this.client = client;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeAfter) {
            c.close();
        }
    }

    private RedisStreamTopic<String> topic(String name) {
        RedisStreamTopic<String> t = RedisStreamTopic.builder(client, name, Codec.utf8())
                .blockTimeout(Duration.ofMillis(500))
                .build();
        t.heartbeats.every(Duration.ofHours(1), Duration.ofHours(2)); // no reclaim pass among the counts
        closeAfter.add(t);
        return t;
    }

    private static String unique() {
        return "cost-test-" + UUID.randomUUID();
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

    /** Calls per command (subcommands apart, as {@code xinfo|groups}) since the server started. */
    private Map<String, Long> commandCalls() {
        Map<String, Long> out = new TreeMap<>();
        for (String line : client.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                String command = line.substring("cmdstat_".length(), line.indexOf(':'));
                String calls = line.substring(line.indexOf("calls=") + "calls=".length(), line.indexOf(','));
                out.put(command, Long.parseLong(calls));
            }
        }
        // the test's own calls, and what a client may send on a new connection
        out.keySet()
                .removeIf(c -> List.of("info", "config", "client", "hello", "ping", "select", "auth").stream()
                        .anyMatch(c::startsWith));
        return out;
    }

    /** The commands of one publish, one claim of it by one group and its ack (warmed up first), by name. */
    private Map<String, Long> publishClaimAck(RedisStreamTopic<String> t, ConsumerGroup<String> g, long groups)
            throws InterruptedException {
        assertThat(t.publish("warm")).isEqualTo(groups);
        assertThat(takeAndAck(g, 1)).containsExactly("warm");
        Map<String, Long> before = commandCalls();
        assertThat(t.publish("m")).isEqualTo(groups);
        assertThat(takeAndAck(g, 1)).containsExactly("m");
        Map<String, Long> out = commandCalls();
        before.forEach((c, n) -> out.merge(c, -n, Long::sum));
        out.values().removeIf(n -> n == 0);
        return out;
    }

    @Test
    void aClaimAndAPublish_costTheSameCommandsWithAThousandGroupsAsWithOne() throws Exception {
        RedisStreamTopic<String> one = topic(unique());
        Map<String, Long> alone = publishClaimAck(one, one.group("g0"), 1);

        String name = unique();
        String stream = "queuekit:{" + name + "}:stream";
        try (AbstractPipeline p = client.pipelined()) {
            for (int i = 1; i < 1_000; i++) {
                p.xgroupCreate(stream, "g" + i, StreamEntryID.XGROUP_LAST_ENTRY, true);
            }
        }
        client.set("queuekit:{" + name + "}:layout", "stream");
        RedisStreamTopic<String> many = topic(name);
        Map<String, Long> among = publishClaimAck(many, many.group("g0"), 1_000);

        assertThat(among.keySet())
                .as("no group list read: %s against %s", among, alone)
                .noneMatch(c -> c.startsWith("xinfo"));
        assertThat(among).as("the same commands, as many of each").isEqualTo(alone);
        assertThat(among.values().stream().mapToLong(Long::longValue).sum())
                .as("a few commands in all")
                .isLessThan(60);
    }

    @Test
    void theGroupCount_followsCreatesDeletesAndSubscriptions() {
        RedisStreamTopic<String> t = topic(unique());
        assertThat(t.publish("first")).isZero();
        t.group("a").close();
        t.group("b").close();
        t.group("a").close(); // exists: not counted again
        assertThat(t.publish("m")).isEqualTo(2);
        Subscription s = t.subscribe(m -> {});
        assertThat(t.publish("m")).isEqualTo(3);
        s.close();
        assertThat(t.deleteGroup("a")).isTrue();
        assertThat(t.deleteGroup("a")).isFalse();
        assertThat(t.publish("m")).isEqualTo(1);

        client.hdel("queuekit:{" + t.name() + "}:counts", "groups"); // as a topic of another version left it
        assertThat(t.publish("m")).as("counted again").isEqualTo(1);
        t.group("c").close();
        assertThat(t.publish("m")).isEqualTo(2);
    }

    private StreamGroupInfo serverGroup(RedisStreamTopic<String> t, String group) {
        return client.xinfoGroups("queuekit:{" + t.name() + "}:stream").stream()
                .filter(g -> g.getName().equals(group))
                .findFirst()
                .orElseThrow();
    }

    /** The scripts' record of the group's last-delivered id, checked against the server's. */
    private void assertRecordedIdIsTheServers(RedisStreamTopic<String> t, String group, String when) {
        String recorded = client.hget("queuekit:{" + t.name() + "}:counts", "l:" + group);
        StreamGroupInfo server = serverGroup(t, group);
        assertThat(recorded).as(when).isEqualTo(server.getLastDeliveredId().toString());
    }

    @Test
    void theRecordedLastDeliveredId_isTheServersAfterEveryScriptThatMovesIt() throws Exception {
        RedisStreamTopic<String> t = topic(unique());
        ConsumerGroup<String> first = t.group("first");
        MessageId one = first.send("one");
        first.send("two");
        ConsumerGroup<String> g = t.group("g");
        assertRecordedIdIsTheServers(t, "g", "created at the end");
        t.publishAll(List.of("a", "b", "c"));
        assertThat(takeAndAck(g, 2)).containsExactly("a", "b");
        assertRecordedIdIsTheServers(t, "g", "after a claim");
        g.replayFrom(Position.after(one));
        assertRecordedIdIsTheServers(t, "g", "replayed after an id");
        g.replayFrom(Position.beginning());
        assertRecordedIdIsTheServers(t, "g", "replayed to the beginning");
        assertThat(takeAndAck(g, 5)).containsExactly("one", "two", "a", "b", "c");
        g.replayFrom(Position.end());
        assertRecordedIdIsTheServers(t, "g", "replayed to the end");

        assertThat(t.deleteGroup("g")).isTrue();
        assertThat(client.hexists("queuekit:{" + t.name() + "}:counts", "l:g")).isFalse();
        t.publish("d");
        ConsumerGroup<String> again = t.group("g", Position.beginning());
        assertRecordedIdIsTheServers(t, "g", "deleted and created again");
        assertThat(takeAndAck(again, 6)).containsExactly("one", "two", "a", "b", "c", "d");

        client.hdel("queuekit:{" + t.name() + "}:counts", "l:g"); // as a topic of another version left it
        t.publish("e");
        assertThat(takeAndAck(again, 1)).containsExactly("e");
        assertRecordedIdIsTheServers(t, "g", "recorded again from XINFO GROUPS");
    }

    @Test
    void aGroupDestroyedByHand_failsItsNextClaim_namingTheGroup() throws Exception {
        RedisStreamTopic<String> t = topic(unique());
        ConsumerGroup<String> g = t.group("g");
        t.publish("m");
        client.xgroupDestroy("queuekit:{" + t.name() + "}:stream", "g"); // its recorded id stays behind

        assertThatThrownBy(() -> g.poll(1, SECONDS)).hasStackTraceContaining("has no consumer group g: it was deleted");
    }

    @Test
    void aGroupStartedAfterAnId_hasAnExactLag() throws Exception {
        RedisStreamTopic<String> t = topic(unique());
        ConsumerGroup<String> first = t.group("first");
        List<MessageId> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(first.send("m" + i));
        }

        ConsumerGroup<String> g = t.group("g", Position.after(ids.get(2)));

        assertThat(g.info().lag()).isEqualTo(2);
        assertThat(g.stats().ready()).isEqualTo(2);
        Object serverLag = serverGroup(t, "g").getGroupInfo().get("lag");
        if (serverGroup(t, "g").getGroupInfo().containsKey("entries-read")) { // Redis 7.0 and later
            assertThat(serverLag)
                    .as("the server's own lag, as XINFO GROUPS shows it")
                    .isEqualTo(2L);
        }
        assertThat(takeAndAck(g, 2)).containsExactly("m3", "m4");
        assertThat(g.info().lag()).isZero();
        t.publish("m5");
        assertThat(g.info().lag()).isEqualTo(1);
    }

    @Test
    void aGroupReplayedToATime_hasAnExactLag() throws Exception {
        RedisStreamTopic<String> t = topic(unique());
        ConsumerGroup<String> g = t.group("g");
        t.publishAll(List.of("m0", "m1", "m2"));
        long before = System.currentTimeMillis();
        await().atMost(5, SECONDS).until(() -> System.currentTimeMillis() > before + 1);
        Instant from = Instant.ofEpochMilli(before + 1);
        await().atMost(5, SECONDS).until(() -> System.currentTimeMillis() > before + 2);
        t.publishAll(List.of("m3", "m4", "m5"));
        assertThat(takeAndAck(g, 6)).hasSize(6);

        g.replayFrom(Position.at(from));

        assertThat(g.info().lag()).isEqualTo(3);
        assertThat(takeAndAck(g, 3)).containsExactly("m3", "m4", "m5");
        assertThat(g.info().lag()).isZero();
    }

    @Test
    void beyondTheCountingBound_theLagIsUnknown() throws Exception {
        RedisStreamTopic<String> t = topic(unique());
        ConsumerGroup<String> first = t.group("first");
        first.send("m0");
        MessageId second = first.send("m1");
        t.publishAll(IntStream.range(0, 100).mapToObj(i -> "n" + i).toList());

        ConsumerGroup<String> g = t.group("g", Position.after(second));
        assertThat(g.info().lag()).as("100 entries after it: counted").isEqualTo(100);

        t.publish("one more");
        ConsumerGroup<String> h = t.group("h", Position.after(second));
        assertThat(h.info().lag()).as("101 entries after it: not counted").isEqualTo(-1);
    }
}

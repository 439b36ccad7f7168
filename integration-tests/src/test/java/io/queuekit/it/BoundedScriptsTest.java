package io.queuekit.it;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.Position;
import io.queuekit.Scheduled;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.redis.internal.LuaScript;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XReadGroupParams;

/**
 * Every script of the list queue (both modes) and of the delay queue runs against keys of 200,000
 * entries each (waiting, taken with no lease yet, in flight with expired leases half of them on
 * their last attempt, retries due, dead letters far over the retention) while another client sends
 * PING: no PING may wait 100 ms for a command that ran that long (see {@link PingWatch}). Redis runs
 * one script at a time, so a script whose work grows with a key stalls every client. The keys are
 * written directly, in the layouts the storages' storage.lua describe; the build runs this class alone
 * (see the parent pom).
 */
@RedisServerTest(server = PER_CLASS)
@Timeout(value = 120, unit = SECONDS)
class BoundedScriptsTest {
    private static final int ENTRIES = 200_000;
    private static final double STALL_MILLIS = 100;
    private static final int CHUNK = 2_000;
    private static final int MAX_ATTEMPTS = 3;
    private static final long EPOCH = 1735689600000L; // of the scores in scores.lua
    private static final int TIE = 4096;

    @Test
    void everyListQueueScript_onKeysOf200kEntries_keepsOtherClientsWaitingUnder100ms(RedisServer server)
            throws Exception {
        String name = "list";
        try (RedisClient client = client(server)) {
            long now = System.currentTimeMillis();
            lpush(client, key(name, "ready"), i -> "r" + i + " 1 " + now + " payload " + i);
            lpush(client, key(name, "claiming"), i -> "c" + i + " 1 " + now + " payload " + i);
            zadd(client, key(name, "delayed"), i -> "t" + i + " 2 " + now + " payload " + i, i -> now - 1_000);
            hset(
                    client,
                    key(name, "held"),
                    i -> "h" + i,
                    i -> "h" + i + " " + (i % 2 == 0 ? MAX_ATTEMPTS : 1) + " " + now + " payload " + i);
            zadd(client, key(name, "inflight"), i -> "h" + i, i -> now - 1_000);
            fillDeadLetters(client, name, now);
            client.set(key(name, "layout"), "list");
            try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                            .maxAttempts(MAX_ATTEMPTS)
                            .deadLetterRetention(1_000)
                            .build();
                    RedisListQueue<String> atMostOnce = RedisListQueue.builder(client, name, Codec.utf8())
                            .guarantee(Guarantee.AT_MOST_ONCE)
                            .maxAttempts(MAX_ATTEMPTS)
                            .deadLetterRetention(1_000)
                            .build();
                    PingWatch watch = PingWatch.start(server)) {
                // a consumer gives an element back when interrupted after taking it: no call to time, so by hand
                LuaScript release = LuaScript.compose(
                        RedisListQueue.class,
                        List.of("/io/queuekit/redis/list/includes/", RedisContext.CORE_INCLUDES),
                        "/io/queuekit/redis/list/release.lua");
                watch.during(
                        "release.lua: an element no longer in flight",
                        () -> release.eval(
                                client,
                                bytes(
                                        key(name, "claiming"),
                                        key(name, "inflight"),
                                        key(name, "held"),
                                        key(name, "ready")),
                                bytes("gone 1 0 p", "gone")));
                readDeadLetters(watch, q);
                watch.during("peek.lua: peek(10)", () -> q.peek(10));
                watch.during("layout.lua: the first send", () -> q.sendAll(List.of("a", "b")));
                watch.during("reap.lua, stats.lua: stats(), after the upkeep", q::stats);
                List<Delivery<String>> got = new ArrayList<>();
                watch.during("claim.lua: pollBatch(100)", () -> got.addAll(q.pollBatch(100, 1, SECONDS)));
                settle(watch, q, got);
                watch.during("claim_at_most_once.lua: poll() at most once", atMostOnce::poll);
                moveDeadLetters(watch, q, 15);
            }
        }
    }

    @Test
    void everyDelayQueueScript_onKeysOf200kEntries_keepsOtherClientsWaitingUnder100ms(RedisServer server)
            throws Exception {
        String name = "zset";
        try (RedisClient client = client(server)) {
            long now = System.currentTimeMillis();
            zadd(client, key(name, "ready"), i -> "w" + i, i -> (double) (now - 60_000 - EPOCH) * TIE + i);
            zadd(client, key(name, "ready"), i -> "f" + i, i -> (double) (now + 3_600_000 - EPOCH) * TIE + i);
            zadd(client, key(name, "inflight"), i -> "x" + i, i -> now - 1_000);
            hset(client, key(name, "lease"), i -> "x" + i, i -> Integer.toString(i + 1));
            hset(client, key(name, "att"), i -> "x" + i, i -> Integer.toString(i % 2 == 0 ? MAX_ATTEMPTS : 1));
            for (String waiting : List.of("w", "f", "x")) {
                hset(client, key(name, "body"), i -> waiting + i, i -> now + ":payload " + i);
            }
            fillDeadLetters(client, name, now);
            client.set(key(name, "seq"), "1000000000");
            client.set(key(name, "layout"), "zset");
            try (RedisDelayQueue<String> q = RedisDelayQueue.builder(client, name, Codec.utf8())
                            .maxAttempts(MAX_ATTEMPTS)
                            .deadLetterRetention(1_000)
                            .build();
                    PingWatch watch = PingWatch.start(server)) {
                watch.during("stats.lua: stats()", q::stats);
                readDeadLetters(watch, q);
                watch.during("peek.lua: peek(10)", () -> q.peek(10));
                watch.during("send.lua: send, sendAll, scheduleAll, scheduleEach, a chosen id", () -> {
                    q.send("one");
                    q.sendAll(List.of("a", "b", "c"));
                    q.scheduleAll(List.of("later", "later too"), Duration.ofMinutes(5));
                    q.scheduleEach(List.of(
                            Scheduled.at("x", Instant.now()),
                            Scheduled.at("y", Instant.now().plusSeconds(60))));
                    q.schedule(MessageId.of("chosen"), "mine", Duration.ofMinutes(1));
                });
                watch.during("cancel.lua: cancel a waiting message", () -> q.cancel(MessageId.of("f3")));
                watch.during(
                        "cancel.lua: cancel one whose lease expired on its last attempt",
                        () -> q.cancel(MessageId.of("x0")));
                List<Delivery<String>> got = new ArrayList<>();
                watch.during(
                        "claim.lua: pollBatch(100), returning and burying expired leases",
                        () -> got.addAll(q.pollBatch(100, 1, SECONDS)));
                settle(watch, q, got);
                moveDeadLetters(watch, q, 15);
            }
        }
    }

    @Test
    void everyStreamTopicScript_onKeysOf200kEntries_keepsOtherClientsWaitingUnder100ms(RedisServer server)
            throws Exception {
        String name = "stream";
        try (RedisClient client = client(server)) {
            long now = System.currentTimeMillis();
            String stream = key(name, "stream");
            for (int from = 0; from < ENTRIES; from += CHUNK) {
                int start = from;
                try (AbstractPipeline p = client.pipelined()) {
                    for (int i = start; i < start + CHUNK; i++) {
                        p.xadd(stream, new StreamEntryID(1_000, i), Map.of("b", "payload " + i));
                    }
                }
            }
            // group g read every entry: half under expired leases, half retries due; "behind" read none;
            client.xgroupCreate(stream, "behind", new StreamEntryID(0, 0), false);
            // doomed and baseline read every entry and acked none: 200k pending each, to delete
            for (String group : List.of("g", "doomed", "baseline")) {
                client.xgroupCreate(stream, group, new StreamEntryID(0, 0), false);
                for (int read = 0; read < ENTRIES; read += CHUNK) {
                    client.xreadGroup(
                            group,
                            "filler",
                            XReadGroupParams.xReadGroupParams().count(CHUNK),
                            Map.of(stream, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
                }
            }
            zadd(client, key(name, "g:g:inflight"), i -> "1000-" + (2 * i), i -> now - 1_000);
            zadd(client, key(name, "g:g:delayed"), i -> "1000-" + (2 * i + 1), i -> now - 1_000);
            // the group's dead letters, in its keys queuekit:{stream}:g:g:<part>
            zadd(client, key(name, "g:g:dead"), i -> "d" + i, i -> (double) (now - 120_000 - EPOCH) * TIE + i);
            hset(client, key(name, "g:g:body"), i -> "d" + i, i -> now + ":payload " + i);
            hset(client, key(name, "g:g:att"), i -> "d" + i, i -> Integer.toString(MAX_ATTEMPTS));
            hset(client, key(name, "g:g:reason"), i -> "d" + i, i -> "filled");
            client.set(key(name, "layout"), "stream");
            try (RedisStreamTopic<String> t = RedisStreamTopic.builder(client, name, Codec.utf8())
                            .maxAttempts(MAX_ATTEMPTS)
                            .deadLetterRetention(1_000)
                            .maxLength(10)
                            .hardMaxLength(ENTRIES - 1_000)
                            .build();
                    PingWatch watch = PingWatch.start(server)) {
                ConsumerGroup<String> g = t.group("g");
                watch.during("groups.lua, info.lua: groups(), stats()", () -> {
                    t.groups();
                    g.stats();
                });
                readDeadLetters(watch, g);
                // the object's first publish runs a soft retention pass too
                watch.during("publish.lua, trim.lua: publish, publishAll past a lowered hard cap", () -> {
                    t.publish("one");
                    t.publishAll(List.of("a", "b", "c"));
                });
                watch.during(
                        "create.lua: a group from the beginning",
                        () -> t.group("late", Position.beginning()).close());
                List<Delivery<String>> got = new ArrayList<>();
                watch.during(
                        "claim.lua: pollBatch(100), reaping and burying expired leases",
                        () -> got.addAll(g.pollBatch(100, 1, SECONDS)));
                settle(watch, g, got);
                watch.during(
                        "replay.lua: replayFrom(beginning)",
                        () -> t.group("behind").replayFrom(Position.beginning()));
                watch.during("delete.lua: deleteGroup", () -> t.deleteGroup("late"));
                watch.during(
                        "XGROUP DESTROY of a group with 200k pending", () -> client.xgroupDestroy(stream, "baseline"));
                long xacksBefore = xackCalls(client);
                watch.during("delete.lua: deleteGroup of a group with 200k pending, 1,000 a step", () -> {
                    assertThat(t.deleteGroup("doomed")).isTrue();
                });
                assertThat(t.groups()).extracting(GroupInfo::name).doesNotContain("doomed", "baseline");
                // counted, not timed: freeing 200k pending entries in one step (XGROUP DESTROY, 11 ms
                // alone on Redis 7.0) makes no XACK; steps of at most 1,000 make at least 199 (the
                // last step destroys the group with its last 1,000)
                assertThat(xackCalls(client) - xacksBefore)
                        .as("XACK calls deleting a group with %d pending, 1,000 a step", ENTRIES)
                        .isGreaterThanOrEqualTo(ENTRIES / 1_000 - 1);
                moveDeadLetters(watch, g, 17);
            }
        }
    }

    /**
     * A retention lowered below what is stored is reached over later dead letterings: each drops
     * the oldest, at most 200 more than it adds.
     */
    @Test
    void loweredRetention_isReachedOverLaterDeadLetterings_200AtATime(RedisServer server) throws Exception {
        String name = "lowered";
        long now = System.currentTimeMillis();
        try (RedisClient client = client(server)) {
            for (int i = 0; i < 1_000; i++) {
                client.zadd(key(name, "dead"), (double) (now - 60_000 - EPOCH) * TIE + i, "d" + i);
                client.hset(key(name, "body"), "d" + i, now + ":dead " + i);
            }
            client.set(key(name, "layout"), "zset");
            try (RedisDelayQueue<String> q = RedisDelayQueue.builder(client, name, Codec.utf8())
                    .deadLetterRetention(10)
                    .build()) {
                q.sendAll(List.of("1", "2", "3", "4", "5"));
                List<Delivery<String>> got = q.pollBatch(5, 1, SECONDS);
                long[] sizes = new long[got.size()];
                for (int i = 0; i < got.size(); i++) {
                    assertThat(got.get(i).deadLetter("lowered")).isTrue();
                    sizes[i] = q.deadLetters().size();
                }
                assertThat(sizes).containsExactly(800, 600, 400, 200, 10);
                assertThat(q.deadLetters().list(1).get(0).id())
                        .as("the oldest dropped first")
                        .isEqualTo(MessageId.of("d995"));
                assertThat(client.hlen(key(name, "body")))
                        .as("bodies dropped with them")
                        .isEqualTo(10);
            }
        }
    }

    private static void readDeadLetters(PingWatch watch, MessageQueue<String> q) throws Exception {
        watch.during(
                "dead_count.lua: deadLetters().size()", () -> q.deadLetters().size());
        watch.during(
                "dead_list.lua: deadLetters().list(10)", () -> q.deadLetters().list(10));
        watch.during("dead_find.lua: deadLetters().find", () -> q.deadLetters().find(MessageId.of("d7")));
    }

    private static void settle(PingWatch watch, MessageQueue<String> q, List<Delivery<String>> got) throws Exception {
        assertThat(got).hasSizeGreaterThan(60);
        watch.during("ack.lua: ack, ackAll", () -> {
            got.get(0).ack();
            q.ackAll(got.subList(1, 40));
        });
        watch.during("retry.lua: retry", () -> {
            got.get(40).retry(Duration.ofSeconds(30));
            got.get(41).retry(Duration.ZERO);
        });
        watch.during("renew.lua: extendLease", () -> got.get(42).extendLease(Duration.ofMinutes(2)));
        watch.during("bury.lua: deadLetter", () -> got.get(43).deadLetter("bounded"));
    }

    /** How many XACK calls the server has run, scripts' included (INFO commandstats). */
    private static long xackCalls(RedisClient client) {
        for (String line : client.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_xack:")) {
                Matcher m = Pattern.compile("calls=(\\d+)").matcher(line);
                return m.find() ? Long.parseLong(m.group(1)) : 0;
            }
        }
        return 0;
    }

    /** The last calls: then every wait is checked. */
    private static void moveDeadLetters(PingWatch watch, MessageQueue<String> q, int calls) throws Exception {
        watch.during("dead_move.lua: requeue, purge one", () -> {
            q.deadLetters().requeue(MessageId.of("d" + (ENTRIES - 1)));
            q.deadLetters().purge(MessageId.of("d" + (ENTRIES - 2)));
        });
        watch.during("dead_move.lua: purge(), 500 a call", () -> q.deadLetters().purge());

        System.out.print(watch.report());
        assertThat(watch.longestWaitsMillis()).as("a wait for each call above").hasSize(calls);
        // a script whose work grows with a key runs 0.5 to 3 s on these keys; a bounded one takes a
        // few ms alone, up to about 75 ms with other modules' tests beside it (the build's -T 2)
        assertThat(watch.stallsOfAtLeast(STALL_MILLIS)).isEmpty();
        assertThat(q.deadLetters().size()).isZero();
    }

    /** A client that waits long enough for a script that stalls the server, as some did. */
    private static RedisClient client(RedisServer server) {
        return RedisClients.builder(server)
                .socketTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** 200,000 dead letters {@code d<i>}, with bodies, died two minutes ago, oldest first. */
    private static void fillDeadLetters(RedisClient client, String name, long now) {
        zadd(client, key(name, "dead"), i -> "d" + i, i -> (double) (now - 120_000 - EPOCH) * TIE + i);
        hset(client, key(name, "body"), i -> "d" + i, i -> now + ":payload " + i);
        hset(client, key(name, "att"), i -> "d" + i, i -> Integer.toString(MAX_ATTEMPTS));
        hset(client, key(name, "reason"), i -> "d" + i, i -> "filled");
    }

    private static String key(String name, String part) {
        return "queuekit:{" + name + "}:" + part;
    }

    private static List<byte[]> bytes(String... values) {
        List<byte[]> out = new ArrayList<>();
        for (String v : values) {
            out.add(v.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    // ENTRIES entries, entry i made by the functions given, CHUNK per command

    private static void lpush(RedisClient client, String key, IntFunction<String> element) {
        for (int from = 0; from < ENTRIES; from += CHUNK) {
            String[] chunk = new String[CHUNK];
            for (int i = 0; i < CHUNK; i++) {
                chunk[i] = element.apply(from + i);
            }
            client.lpush(key, chunk);
        }
    }

    private static void zadd(RedisClient client, String key, IntFunction<String> member, IntToDoubleFunction score) {
        for (int from = 0; from < ENTRIES; from += CHUNK) {
            Map<String, Double> chunk = new HashMap<>();
            for (int i = from; i < from + CHUNK; i++) {
                chunk.put(member.apply(i), score.applyAsDouble(i));
            }
            client.zadd(key, chunk);
        }
    }

    private static void hset(RedisClient client, String key, IntFunction<String> field, IntFunction<String> value) {
        for (int from = 0; from < ENTRIES; from += CHUNK) {
            Map<String, String> chunk = new HashMap<>();
            for (int i = from; i < from + CHUNK; i++) {
                chunk.put(field.apply(i), value.apply(i));
            }
            client.hset(key, chunk);
        }
    }
}

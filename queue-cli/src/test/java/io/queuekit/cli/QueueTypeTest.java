package io.queuekit.cli;

import static io.queuekit.cli.Cli.cli;
import static io.queuekit.cli.Cli.redisUri;
import static io.queuekit.cli.Cli.snapshot;
import static io.queuekit.cli.Cli.unique;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.RedisClient;

@DisplayName(
        "The queue's type is read from its keys: a --type that contradicts them, or keys of no known layout, are refused before anything is written")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class QueueTypeTest {
    private static RedisClient client;

    @BeforeAll
    static void connect(RedisClient redis) {
        client = redis;
    }

    private static Map<String, String> keys(String name) {
        return snapshot(client, RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).base());
    }

    private static String key(String name, String part) {
        return RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).key(part);
    }

    @Test
    void zsetType_onAListQueue_isRefused_andTheQueueKeepsWorking() throws Exception {
        String name = unique();
        try (RedisListQueue<String> q =
                RedisListQueue.builder(client, name, Codec.utf8()).build()) {
            q.sendAll(List.of("held", "failed"));
            Delivery<String> held = q.poll(5, TimeUnit.SECONDS);
            Delivery<String> failed = q.poll(5, TimeUnit.SECONDS);
            failed.deadLetter("bad");
            // nothing ready: only the in-flight list tells that this is a list queue
            Map<String, String> before = keys(name);

            Cli.Result r = cli().run(
                            "dead",
                            "requeue",
                            "--redis",
                            redisUri(),
                            "--queue",
                            name,
                            "--type",
                            "zset",
                            "--id",
                            failed.id().value());

            assertThat(r.exit()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).contains("--type zset").contains("list queue").contains(key(name, "claiming"));
            assertThat(keys(name)).isEqualTo(before);
            assertThat(client.type(key(name, "ready"))).isEqualTo("none");
            q.send("after");
            assertThat(held.ack()).isTrue();

            Cli.Result right = cli().run(
                            "dead",
                            "requeue",
                            "--redis",
                            redisUri(),
                            "--queue",
                            name,
                            "--type",
                            "list",
                            "--id",
                            failed.id().value());
            assertThat(right.exit()).as(right.err()).isZero();
            assertThat(q.stats().ready()).isEqualTo(2);
        }
    }

    @Test
    void listType_onADelayQueue_isRefused_andNothingIsHalfWritten() throws Exception {
        String name = unique();
        try (RedisDelayQueue<String> q =
                RedisDelayQueue.builder(client, name, Codec.utf8()).build()) {
            q.schedule("later", Duration.ofHours(1));
            q.send("failed");
            Delivery<String> failed = q.poll(5, TimeUnit.SECONDS);
            failed.deadLetter("bad");
            Map<String, String> before = keys(name);

            Cli.Result r = cli().run(
                            "dead",
                            "requeue",
                            "--redis",
                            redisUri(),
                            "--queue",
                            name,
                            "--type",
                            "list",
                            "--id",
                            failed.id().value());

            assertThat(r.exit()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).contains("--type list").contains("zset queue");
            assertThat(keys(name)).isEqualTo(before);
            assertThat(q.deadLetters().list(10)).extracting(d -> d.reason()).containsExactly("bad");
        }
    }

    /** Keys as another program, or an older bug, may have left them; each with one dead letter "d1". */
    static Stream<Arguments> unknownLayouts() {
        return Stream.of(
                Arguments.of(
                        "ready is a string", (BiConsumer<RedisClient, String>) (c, n) -> c.set(key(n, "ready"), "x")),
                Arguments.of("ready is a hash", (BiConsumer<RedisClient, String>)
                        (c, n) -> c.hset(key(n, "ready"), "f", "v")),
                Arguments.of("a zset ready beside a list in flight", (BiConsumer<RedisClient, String>) (c, n) -> {
                    c.zadd(key(n, "ready"), 1, "m1");
                    c.rpush(key(n, "claiming"), "m2 1 0 x");
                }),
                Arguments.of("dead letters in a list", (BiConsumer<RedisClient, String>) (c, n) -> {
                    c.del(key(n, "dead"));
                    c.rpush(key(n, "dead"), "d1");
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unknownLayouts")
    void keysOfNoKnownLayout_areRefused_whateverTheType(String label, BiConsumer<RedisClient, String> layout) {
        String name = unique();
        client.zadd(key(name, "dead"), 1, "d1");
        client.hset(key(name, "body"), "d1", "0:payload");
        client.hset(key(name, "reason"), "d1", "bad");
        layout.accept(client, name);
        Map<String, String> before = keys(name);

        Cli.Result stats = cli().run("stats", "--redis", redisUri(), "--queue", name);
        Cli.Result requeueList =
                cli().run("dead", "requeue", "--redis", redisUri(), "--queue", name, "--type", "list", "--id", "d1");
        Cli.Result requeueZset =
                cli().run("dead", "requeue", "--redis", redisUri(), "--queue", name, "--type", "zset", "--id", "d1");

        for (Cli.Result r : List.of(stats, requeueList, requeueZset)) {
            assertThat(r.exit()).as(r.err()).isEqualTo(1);
            assertThat(r.err()).contains("no known queue layout").contains("nothing was changed");
        }
        assertThat(keys(name)).isEqualTo(before);
    }

    @Test
    void onlyDeadLetters_areToldByTheRecordedLayout_orWithoutItNeedAType() throws Exception {
        String name = unique();
        try (RedisListQueue<String> q =
                RedisListQueue.builder(client, name, Codec.utf8()).build()) {
            q.send("failed");
            Delivery<String> failed = q.poll(5, TimeUnit.SECONDS);
            failed.deadLetter("bad");
            Map<String, String> before = keys(name);
            // no ready, in-flight or delayed key is left to tell a list queue from a delay queue, but
            // the queue recorded its layout
            assertThat(before)
                    .containsKey(key(name, "layout"))
                    .doesNotContainKeys(key(name, "ready"), key(name, "claiming"), key(name, "delayed"));

            Cli.Result wrong = cli().run(
                            "dead",
                            "requeue",
                            "--redis",
                            redisUri(),
                            "--queue",
                            name,
                            "--type",
                            "zset",
                            "--id",
                            failed.id().value());
            assertThat(wrong.exit()).as(wrong.err()).isEqualTo(2);
            assertThat(wrong.err()).contains("--type zset contradicts").contains("says list");
            assertThat(keys(name)).isEqualTo(before);

            // keys written before the queues recorded their layout cannot tell
            client.del(key(name, "layout"));
            before = keys(name);
            Cli.Result untold = cli().run(
                            "dead",
                            "requeue",
                            "--redis",
                            redisUri(),
                            "--queue",
                            name,
                            "--id",
                            failed.id().value());
            assertThat(untold.exit()).as(untold.err()).isEqualTo(2);
            assertThat(untold.err()).contains("--type list").contains("--type zset");
            assertThat(keys(name)).isEqualTo(before);

            Cli.Result told = cli().run(
                            "dead",
                            "requeue",
                            "--redis",
                            redisUri(),
                            "--queue",
                            name,
                            "--type",
                            "list",
                            "--id",
                            failed.id().value());
            assertThat(told.exit()).as(told.err()).isZero();
            assertThat(q.poll(5, TimeUnit.SECONDS).payload()).isEqualTo("failed");
        }
    }
}

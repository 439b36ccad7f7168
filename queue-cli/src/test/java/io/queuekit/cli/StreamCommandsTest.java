package io.queuekit.cli;

import static io.queuekit.cli.Cli.cli;
import static io.queuekit.cli.Cli.redisUri;
import static io.queuekit.cli.Cli.snapshot;
import static io.queuekit.cli.Cli.unique;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.Delivery;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

@DisplayName("A stream topic's groups are listed with their counts; --group opens one for stats and dead letters")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class StreamCommandsTest {
    private static RedisClient client;

    @BeforeAll
    static void connect(RedisClient redis) {
        client = redis;
    }

    /** A topic with groups billing (one acked, one dead, one in flight) and shipping (three unread). */
    private static RedisStreamTopic<String> topic(String name) throws Exception {
        RedisStreamTopic<String> t =
                RedisStreamTopic.builder(client, name, Codec.utf8()).build();
        ConsumerGroup<String> billing = t.group("billing");
        t.group("shipping");
        t.publish("one");
        t.publish("two");
        t.publish("three");
        billing.poll(5, TimeUnit.SECONDS).ack();
        billing.poll(5, TimeUnit.SECONDS).deadLetter("bad");
        billing.poll(5, TimeUnit.SECONDS);
        return t;
    }

    @Test
    void groups_listsEveryGroupWithItsCounts() throws Exception {
        String name = unique();
        try (RedisStreamTopic<String> t = topic(name)) {
            Cli.Result r = cli().run("groups", "--redis", redisUri(), "--queue", name, "--json");

            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out())
                    .contains("\"size\":3")
                    .contains(
                            "{\"name\":\"billing\",\"lag\":0,\"pending\":1,\"dead\":1,\"missed\":0,\"subscription\":false}")
                    .contains(
                            "{\"name\":\"shipping\",\"lag\":3,\"pending\":0,\"dead\":0,\"missed\":0,\"subscription\":false}");
            assertThat(cli().run("groups", "--redis", redisUri(), "--queue", name)
                            .out())
                    .contains("billing")
                    .contains("lag 3");
        }
    }

    @Test
    void group_opensForStatsAndDeadLetters() throws Exception {
        String name = unique();
        try (RedisStreamTopic<String> t = topic(name)) {
            Cli.Result stats =
                    cli().run("stats", "--redis", redisUri(), "--queue", name, "--group", "billing", "--json");
            assertThat(stats.exit()).as(stats.err()).isZero();
            assertThat(stats.out())
                    .contains("\"group\":\"billing\"")
                    .contains("\"inFlight\":1")
                    .contains("\"dead\":1");

            Cli.Result dead = cli().run("dead", "list", "--redis", redisUri(), "--queue", name, "--group", "billing");
            assertThat(dead.exit()).as(dead.err()).isZero();
            assertThat(dead.out()).contains("\"bad\"").contains("\"two\"");
        }
    }

    @Test
    void unknownGroup_isRefused_andNothingIsCreated() throws Exception {
        String name = unique();
        try (RedisStreamTopic<String> t = topic(name)) {
            Map<String, String> before = snapshot(
                    client, RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).base());

            Cli.Result r = cli().run("stats", "--redis", redisUri(), "--queue", name, "--group", "billling");
            Cli.Result peek = cli().run("peek", "--redis", redisUri(), "--queue", name, "--group", "billling");

            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.err()).contains("no group 'billling'").contains("billing, shipping");
            assertThat(peek.exit()).isEqualTo(1);
            assertThat(peek.err()).contains("no group 'billling'");
            assertThat(snapshot(
                            client, RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).base()))
                    .isEqualTo(before);
            assertThat(t.groups()).hasSize(2);
        }
    }

    @Test
    void unknownTopic_isRefused_andNoKeyIsWritten() {
        String name = unique();

        Cli.Result groups = cli().run("groups", "--redis", redisUri(), "--queue", name);
        Cli.Result stats = cli().run("stats", "--redis", redisUri(), "--queue", name, "--group", "billing");

        assertThat(groups.exit()).isEqualTo(1);
        assertThat(groups.err()).contains("no stream topic named '" + name + "'");
        assertThat(stats.exit()).isEqualTo(1);
        assertThat(snapshot(client, RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).base()))
                .isEmpty();
    }

    @Test
    void aShardedTopic_isRefused_sayingTheCommandsReadUnshardedTopicsOnly_andNoKeyIsWritten() throws Exception {
        String name = unique();
        try (RedisStreamTopic<String> t =
                RedisStreamTopic.builder(client, name, Codec.utf8()).shards(3).build()) {
            t.group("billing");
            t.publish("one");
        }
        Map<String, String> before = shardedSnapshot(name);

        for (Cli.Result r : new Cli.Result[] {
            cli().run("groups", "--redis", redisUri(), "--queue", name),
            cli().run("stats", "--redis", redisUri(), "--queue", name, "--group", "billing"),
            cli().run("dead", "list", "--redis", redisUri(), "--queue", name, "--group", "billing"),
            cli().run("peek", "--redis", redisUri(), "--queue", name, "--group", "billing")
        }) {
            assertThat(r.exit()).as(r.err()).isEqualTo(1);
            assertThat(r.err())
                    .contains("stream topic '" + name + "' is stored in 3 shards")
                    .contains("the operator commands read unsharded topics only");
        }
        assertThat(shardedSnapshot(name)).isEqualTo(before);
    }

    /** Every key of a topic of three shards: its record of the number, and each shard's. */
    private static Map<String, String> shardedSnapshot(String name) {
        RedisKeys keys = RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name);
        Map<String, String> all = new java.util.TreeMap<>(snapshot(client, keys.base()));
        for (int i = 0; i < 3; i++) {
            all.putAll(snapshot(client, keys.shard(i, 3).base()));
        }
        assertThat(all).containsKey(keys.key("shards")).hasSizeGreaterThan(3);
        return all;
    }

    @Test
    void peek_ofAGroup_showsWhatIsPending_thenWhatItHasNotRead_andChangesNothing() throws Exception {
        String name = unique();
        try (RedisStreamTopic<String> t =
                        RedisStreamTopic.builder(client, name, Codec.utf8()).build();
                ConsumerGroup<String> billing = t.group("billing")) {
            t.publishAll(java.util.List.of("a", "b", "c", "d"));
            assertThat(billing.poll(5, TimeUnit.SECONDS).retry(Duration.ofMinutes(5)))
                    .isTrue();
            Delivery<String> held = billing.poll(5, TimeUnit.SECONDS); // b, in flight
            Map<String, String> before = snapshot(
                    client, RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).base());

            Cli.Result json = cli().run("peek", "--redis", redisUri(), "--queue", name, "--group", "billing", "--json");
            Cli.Result text = cli().run("peek", "--redis", redisUri(), "--queue", name, "--group", "billing");
            Cli.Result two =
                    cli().run("peek", "--redis", redisUri(), "--queue", name, "--group", "billing", "--limit", "2");

            assertThat(json.exit()).as(json.err()).isZero();
            assertThat(json.out())
                    .contains("\"group\":\"billing\"")
                    .containsSubsequence(
                            "{\"state\":\"in-flight\"",
                            "\"attempt\":1,\"id\":\"" + held.id().value() + "\",\"leaseUntil\":",
                            "\"payload\":\"b\"",
                            "{\"state\":\"waiting\"",
                            "\"attempt\":2,",
                            "\"dueAt\":",
                            "\"payload\":\"a\"",
                            "{\"state\":\"unread\"",
                            "\"attempt\":1,",
                            "\"payload\":\"c\"",
                            "{\"state\":\"unread\"",
                            "\"payload\":\"d\"");
            assertThat(text.exit()).as(text.err()).isZero();
            assertThat(text.out().lines().toList())
                    .hasSize(4)
                    .satisfies(l -> assertThat(l.get(0))
                            .contains("in-flight  attempt 1  lease until")
                            .endsWith("\"b\""))
                    .satisfies(l -> assertThat(l.get(1))
                            .contains("waiting  attempt 2  due")
                            .endsWith("\"a\""))
                    .satisfies(l ->
                            assertThat(l.get(3)).contains("unread  attempt 1").endsWith("\"d\""));
            assertThat(two.out().lines()).hasSize(2);
            assertThat(snapshot(
                            client, RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).base()))
                    .as("peek writes nothing")
                    .isEqualTo(before);
            assertThat(held.ack()).as("its lease untouched").isTrue();
        }
    }

    @Test
    void streamType_withoutAGroup_isAUsageError() throws Exception {
        String name = unique();
        try (RedisStreamTopic<String> t = topic(name)) {
            assertThat(cli().run("stats", "--redis", redisUri(), "--queue", name, "--type", "stream")
                            .exit())
                    .isEqualTo(2);
            assertThat(cli().run(
                                    "stats",
                                    "--redis",
                                    redisUri(),
                                    "--queue",
                                    name,
                                    "--type",
                                    "list",
                                    "--group",
                                    "billing")
                            .exit())
                    .isEqualTo(2);
        }
    }
}

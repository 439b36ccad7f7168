package io.queuekit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MissedTicks;
import io.queuekit.Schedule;
import io.queuekit.ScheduleInfo;
import io.queuekit.Scheduler;
import io.queuekit.Trigger;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
@RedisServerTest
class MainTest {
    private static RedisClient client;
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

    @BeforeAll
    static void connect(RedisClient redis) {
        client = redis;
    }

    private int run(String... args) {
        return Main.run(
                args,
                new PrintStream(outBytes, true, StandardCharsets.UTF_8),
                new PrintStream(errBytes, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    private static String unique() {
        return "cli-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void noArguments_printsUsage_andExits2() {
        assertThat(run()).isEqualTo(2);
        assertThat(out()).contains("usage: queuekit <command>").contains("demo").contains("stats");
    }

    @Test
    void everyCommand_hasHelp() {
        for (String c : List.of("demo", "stats", "peek", "pause", "resume", "schedules", "dead")) {
            outBytes.reset();
            assertThat(run(c, "--help")).as(c).isZero();
            assertThat(out()).as(c).contains("usage: queuekit " + c);
        }
    }

    @Test
    void unknownCommand_exits2_andSaysSo() {
        assertThat(run("frobnicate")).isEqualTo(2);
        assertThat(err()).contains("unknown command 'frobnicate'");
    }

    @Test
    void wrongUrl_isRefusedClearly() {
        assertThat(run("stats", "--redis", "http://localhost:6379", "--queue", "q"))
                .isEqualTo(2);
        assertThat(err()).contains("invalid Redis URL 'http://localhost:6379'").contains("redis://");
    }

    @Test
    void unreachableRedis_exits1_withoutLeakingThePassword() {
        assertThat(run("stats", "--redis", "redis://user:secret@127.0.0.1:1", "--queue", "q"))
                .isEqualTo(1);
        assertThat(err())
                .contains("cannot talk to Redis at redis://***@127.0.0.1:1")
                .doesNotContain("secret");
    }

    @Test
    void unknownQueue_exits1_andNamesTheQueuesThatExist() {
        String known = unique();
        try (RedisListQueue<String> q =
                RedisListQueue.builder(client, known, Codec.utf8()).build()) {
            q.send("x");
        }
        assertThat(run("stats", "--redis", RedisServer.shared().uri(), "--queue", "no-such-queue"))
                .isEqualTo(1);
        assertThat(err()).contains("no queue named 'no-such-queue'").contains(known);
    }

    @Test
    void aShardedQueue_isRefused_sayingTheCommandsReadUnshardedQueuesOnly() {
        String name = unique();
        try (RedisListQueue<String> q =
                RedisListQueue.builder(client, name, Codec.utf8()).shards(3).build()) {
            q.send("x");
        }
        String uri = RedisServer.shared().uri();
        for (List<String> type : List.of(List.<String>of(), List.of("--type", "list"))) {
            errBytes.reset();
            List<String> args = new ArrayList<>(List.of("stats", "--redis", uri, "--queue", name));
            args.addAll(type);

            assertThat(run(args.toArray(String[]::new))).as("%s", type).isEqualTo(1);
            assertThat(err())
                    .as("%s", type)
                    .contains("queue '" + name + "' is stored in 3 shards")
                    .contains("the operator commands read unsharded queues only");
        }
    }

    @Test
    void pause_stopsEveryObjectHandingOut_statsShowsIt_andResumeHandsOutAgain() throws Exception {
        String name = unique();
        try (RedisListQueue<String> q =
                RedisListQueue.builder(client, name, Codec.utf8()).build()) {
            q.send("kept");
            String uri = RedisServer.shared().uri();

            assertThat(run("pause", "--redis", uri, "--queue", name)).isZero();
            assertThat(out()).contains("queue '" + name + "' (list queue at ").contains(") paused");
            assertThat(q.isPaused()).isTrue();
            assertThat(q.poll()).as("a poll of the queue the command paused").isNull();

            outBytes.reset();
            assertThat(run("stats", "--redis", uri, "--queue", name)).isZero();
            assertThat(out()).containsPattern("ready\\s+1").containsPattern("paused\\s+yes");
            outBytes.reset();
            assertThat(run("stats", "--redis", uri, "--queue", name, "--json")).isZero();
            assertThat(out()).contains("\"paused\":true");
            outBytes.reset();
            assertThat(run("pause", "--redis", uri, "--queue", name)).isZero();
            assertThat(out()).contains("was paused already");

            outBytes.reset();
            assertThat(run("resume", "--redis", uri, "--queue", name)).isZero();
            assertThat(out()).contains(") resumed");
            assertThat(q.isPaused()).isFalse();
            Delivery<String> d = q.poll(5, TimeUnit.SECONDS);
            assertThat(d).isNotNull();
            assertThat(d.payload()).isEqualTo("kept");
            outBytes.reset();
            assertThat(run("stats", "--redis", uri, "--queue", name)).isZero();
            assertThat(out()).containsPattern("paused\\s+no");
        }
    }

    @Test
    void schedules_listsADelayQueuesSchedules_withTheirRuns_andRefusesAListQueue() throws Exception {
        String name = unique();
        String uri = RedisServer.shared().uri();
        try (RedisDelayQueue<String> q =
                        RedisDelayQueue.builder(client, name, Codec.utf8()).build();
                Scheduler<String> s = q.scheduler()) {
            assertThat(run("schedules", "--redis", uri, "--queue", name, "--type", "zset"))
                    .isZero();
            assertThat(out()).contains("has no schedules");

            ScheduleInfo<String> info = s.put(Schedule.of("hourly", Trigger.every(Duration.ofHours(1)), "report")
                    .whenMissed(MissedTicks.SKIP));
            outBytes.reset();
            assertThat(run("schedules", "--redis", uri, "--queue", name)).isZero();
            assertThat(out())
                    .contains("hourly  every PT1H from 1970-01-01T00:00:00Z  missed skip  last -  next "
                            + info.nextRun());
            outBytes.reset();
            assertThat(run("schedules", "--redis", uri, "--queue", name, "--json"))
                    .isZero();
            assertThat(out())
                    .contains("\"name\":\"hourly\"")
                    .contains("\"missed\":\"SKIP\"")
                    .contains("\"nextRun\":\"" + info.nextRun() + "\"")
                    .contains("\"payload\":\"report\"");
        }
        String list = unique();
        try (RedisListQueue<String> q =
                RedisListQueue.builder(client, list, Codec.utf8()).build()) {
            q.send("x");
            outBytes.reset();
            assertThat(run("schedules", "--redis", uri, "--queue", list)).isNotZero();
        }
    }

    @Test
    void stats_peek_andDeadLetters_ofAListQueue() throws Exception {
        String name = unique();
        try (RedisListQueue<String> q =
                RedisListQueue.builder(client, name, Codec.utf8()).build()) {
            q.sendAll(List.of("first", "second", "third"));
            Delivery<String> d = q.poll(5, TimeUnit.SECONDS);
            d.deadLetter("bad input");
            String uri = RedisServer.shared().uri();

            assertThat(run("stats", "--redis", uri, "--queue", name)).isZero();
            assertThat(out())
                    .contains("list queue")
                    .containsPattern("ready\\s+2")
                    .containsPattern("dead\\s+1");

            outBytes.reset();
            assertThat(run("peek", "--redis", uri, "--queue", name, "--limit", "1"))
                    .isZero();
            assertThat(out()).contains("second").doesNotContain("third").doesNotContain("headers");

            outBytes.reset();
            assertThat(run("dead", "list", "--redis", uri, "--queue", name)).isZero();
            assertThat(out())
                    .contains("reason: \"bad input\"")
                    .contains("\"first\"")
                    .doesNotContain("headers");

            outBytes.reset();
            assertThat(run("dead", "requeue", "--yes", "--redis", uri, "--queue", name))
                    .isZero();
            assertThat(out()).contains("requeued 1");
            assertThat(q.stats().ready()).isEqualTo(3);
            assertThat(q.stats().dead()).isZero();
        }
    }

    @Test
    void peek_ofADelayQueue_showsDueTimes_andPurgeEmptiesDeadLetters() throws Exception {
        String name = unique();
        try (RedisDelayQueue<String> q =
                RedisDelayQueue.builder(client, name, Codec.utf8()).build()) {
            q.schedule("later", Duration.ofHours(1));
            q.send("now");
            q.poll(5, TimeUnit.SECONDS).deadLetter("gave up");
            String uri = RedisServer.shared().uri();

            assertThat(run("peek", "--redis", uri, "--queue", name)).isZero();
            assertThat(out()).contains("later").contains("due ");

            outBytes.reset();
            assertThat(run("dead", "purge", "--yes", "--redis", uri, "--queue", name))
                    .isZero();
            assertThat(out()).contains("purged 1");
            assertThat(q.stats().dead()).isZero();
            assertThat(q.stats().delayed()).isEqualTo(1);
        }
    }

    @Test
    void demo_runsEveryTransport_andReportsWhatItMeasured() {
        assertThat(run("demo", "--redis", RedisServer.shared().uri(), "--messages", "200"))
                .isZero();
        String out = out();
        assertThat(out)
                .contains("redis-list (at-least-once)")
                .contains("redis-list (at-most-once)")
                .contains("redis-zset")
                .contains("redis-pubsub")
                .contains("in-memory");
        assertThat(out).contains("| transport | delivery |");
        // the at-least-once list queue redelivers what the dead consumer held: nothing lost
        assertThat(out).containsPattern("redis-list \\(at-least-once\\)\\s+at-least-once\\s+200\\s+\\d+\\s+0\\s+0");
        // so does the list queue in three shards, whichever shard the dead consumer took from
        assertThat(out).containsPattern("redis-list \\(3 shards\\)\\s+at-least-once\\s+200\\s+\\d+\\s+0\\s+0");
        // the at-most-once list queue loses exactly what the dead consumer held
        assertThat(out).containsPattern("redis-list \\(at-most-once\\)\\s+at-most-once\\s+175\\s+0\\s+25\\s+0");
        // the late pub/sub subscriber misses the first half
        assertThat(out).containsPattern("redis-pubsub\\s+at-most-once\\s+200\\s+0\\s+100\\s+100");
        // the stream's group whose consumer died gets everything from its successor, the late group too
        assertThat(out).containsPattern("redis-stream\\s+at-least-once\\s+200\\s+\\d+\\s+0\\s+0");
        assertThat(out).containsPattern("in-memory topic\\s+at-least-once\\s+200\\s+\\d+\\s+0\\s+0");
        assertThat(out).doesNotContain("EARLY");
    }
}

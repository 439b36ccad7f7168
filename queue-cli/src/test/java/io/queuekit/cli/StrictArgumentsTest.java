package io.queuekit.cli;

import static io.queuekit.cli.Cli.cli;
import static io.queuekit.cli.Cli.redisUri;
import static io.queuekit.cli.Cli.snapshot;
import static io.queuekit.cli.Cli.unique;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.testing.RedisServerTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.RedisClient;

@DisplayName("A word or option the command does not understand is refused, and nothing is changed")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class StrictArgumentsTest {
    private static RedisClient client;
    private final String name = unique();
    private RedisListQueue<String> queue;
    private final List<MessageId> dead = new ArrayList<>();

    @BeforeAll
    static void connect(RedisClient redis) {
        client = redis;
    }

    @BeforeEach
    void twoDeadLetters() throws InterruptedException {
        queue = RedisListQueue.builder(client, name, Codec.utf8()).build();
        queue.sendAll(List.of("a", "b", "c"));
        for (int i = 0; i < 2; i++) {
            Delivery<String> d = queue.poll(5, TimeUnit.SECONDS);
            d.deadLetter("bad " + i);
            dead.add(d.id());
        }
    }

    @AfterEach
    void close() {
        queue.close();
    }

    private Map<String, String> keys() {
        return snapshot(client, RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).base());
    }

    @Test
    void deadPurge_withAnId_purgesThatOneAlone() {
        Cli.Result r = cli().run(
                        "dead",
                        "purge",
                        "--redis",
                        redisUri(),
                        "--queue",
                        name,
                        "--id",
                        dead.get(0).value());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("purged 1");
        assertThat(queue.deadLetters().list(10)).extracting(d -> d.id()).containsExactly(dead.get(1));
    }

    @Test
    void deadPurge_withTheIdAsAWord_isRefused_andPurgesNothing() {
        Map<String, String> before = keys();
        Cli.Result r = cli().run("dead", "purge", dead.get(0).value(), "--redis", redisUri(), "--queue", name);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains(dead.get(0).value()).contains("--id");
        assertThat(keys()).isEqualTo(before);
    }

    @Test
    void deadRequeue_withTheIdAsAWord_isRefused_andRequeuesNothing() {
        Map<String, String> before = keys();
        Cli.Result r = cli().run("dead", "requeue", dead.get(0).value(), "--redis", redisUri(), "--queue", name);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains(dead.get(0).value()).contains("--id");
        assertThat(keys()).isEqualTo(before);
    }

    /** A command, then what follows its --redis and --queue options. */
    static Stream<Arguments> misunderstood() {
        return Stream.of(
                Arguments.of(List.of("dead", "purge"), List.of("-i", "x")), // a one-dash typo of --id
                Arguments.of(List.of("dead", "purge"), List.of("all")),
                Arguments.of(List.of("dead", "requeue"), List.of("--id", "x", "--id", "y")),
                Arguments.of(List.of("dead", "list"), List.of("now")),
                Arguments.of(List.of("stats"), List.of("--queue", "other")), // a second --queue: which one?
                Arguments.of(List.of("stats"), List.of("--verbose")),
                Arguments.of(List.of("peek"), List.of("-n", "5")));
    }

    @ParameterizedTest(name = "{0} ... {1}")
    @MethodSource("misunderstood")
    void anythingNotUnderstood_exits2_andChangesNothing(List<String> command, List<String> rest) {
        Map<String, String> before = keys();
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of("--redis", redisUri(), "--queue", name));
        args.addAll(rest);
        Cli.Result r = cli().run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("queuekit: ").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(keys()).isEqualTo(before);
    }

    @Test
    void unknownDeadSubcommand_exits2() {
        Cli.Result r = cli().run("dead", "remove", "--redis", redisUri(), "--queue", name);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("remove");
    }
}

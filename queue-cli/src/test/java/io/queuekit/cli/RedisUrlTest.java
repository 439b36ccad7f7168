package io.queuekit.cli;

import static io.queuekit.cli.Cli.cli;
import static io.queuekit.cli.Cli.redisUri;
import static io.queuekit.cli.Cli.unique;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.testing.RedisServerTest;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.RedisClient;

@DisplayName(
        "The Redis URL comes from an option, a file or REDIS_URL; bad input gets one line and exit code 2; no message shows a password")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class RedisUrlTest {
    private static RedisClient client;
    private static String name;

    @BeforeAll
    static void aQueueWithADeadLetter(RedisClient redis) throws InterruptedException {
        client = redis;
        name = unique();
        try (RedisListQueue<String> q =
                RedisListQueue.builder(client, name, Codec.utf8()).build()) {
            q.sendAll(List.of("one", "two"));
            Delivery<String> d = q.poll(5, TimeUnit.SECONDS);
            d.deadLetter("bad");
        }
    }

    private static String hostPort() {
        URI u = URI.create(redisUri());
        return u.getHost() + ":" + u.getPort();
    }

    /** One line saying what is wrong, then one line saying where to read about it; no stack trace. */
    private static void assertUsageError(Cli.Result r) {
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("queuekit: ").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.err().lines().count()).as(r.err()).isLessThanOrEqualTo(2);
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "redis://u:p@ss@127.0.0.1:6390", // an unescaped @ in the password
                "redis://u:p@ss@127.0.0.1",
                "redis://user:p@ss@127.0.0.1:6390/abc",
                "http://user:p@ss@127.0.0.1:6390",
                "redis://user:p@ss@127.0.0.1:99999",
                "redis://user:p@ss@[::1:6390",
                "redis://user:p@ss @127.0.0.1:6390",
                "redis://p%40ss@127.0.0.1:6390", // a password without the colon before it
            })
    void invalidUrl_isRefused_withoutShowingThePassword(String url) {
        Cli.Result r = cli().run("stats", "--redis", url, "--queue", "q");
        assertUsageError(r);
        assertThat(r.err())
                .contains("invalid Redis URL")
                .doesNotContain("p@ss")
                .doesNotContain("ss@")
                .doesNotContain("p%40ss");
    }

    @Test
    void invalidUrl_fromTheEnvironment_isRefused_withoutShowingThePassword() {
        Cli.Result r = cli().env("REDIS_URL", "redis://u:p@ss@127.0.0.1").run("stats", "--queue", "q");
        assertUsageError(r);
        assertThat(r.err()).contains("REDIS_URL").doesNotContain("p@ss");
    }

    @Test
    void urlWithoutAPort_isAUsageError() {
        Cli.Result r = cli().run("stats", "--redis", "redis://127.0.0.1", "--queue", name);
        assertUsageError(r);
        assertThat(r.err()).contains("no port").contains("redis://[user:password@]host:port[/db]");
    }

    @Test
    void nonNumericDatabase_isAUsageError() {
        Cli.Result r = cli().run("stats", "--redis", redisUri() + "/abc", "--queue", name);
        assertUsageError(r);
        assertThat(r.err()).contains("database");
    }

    @Test
    void invalidId_isAUsageError() {
        Cli.Result r = cli().run("dead", "requeue", "--redis", redisUri(), "--queue", name, "--id", "two words");
        assertUsageError(r);
        assertThat(r.err()).contains("--id");
    }

    @Test
    void invalidQueueName_isAUsageError() {
        Cli.Result r = cli().run("stats", "--redis", redisUri(), "--queue", "a}b");
        assertUsageError(r);
    }

    @Test
    void outOfRangeLimit_isAUsageError() {
        Cli.Result r = cli().run("peek", "--redis", redisUri(), "--queue", name, "--limit", "ten");
        assertUsageError(r);
        assertThat(r.err()).contains("--limit");
    }

    @Test
    void url_fromTheEnvironment() {
        Cli.Result r = cli().env("REDIS_URL", redisUri()).run("stats", "--queue", name);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("dead\\s+1");
    }

    @Test
    void url_fromAFile(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("redis-url"), redisUri() + "\n");
        Cli.Result r = cli().run("stats", "--redis-file", file.toString(), "--queue", name);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("dead\\s+1");
    }

    @Test
    void url_fromAnOption_winsOverTheEnvironment() {
        Cli.Result r =
                cli().env("REDIS_URL", "redis://127.0.0.1:1").run("stats", "--redis", redisUri(), "--queue", name);
        assertThat(r.exit()).as(r.err()).isZero();
    }

    @Test
    void url_givenTwoWays_isAUsageError(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("redis-url"), redisUri());
        assertUsageError(cli().run("stats", "--redis", redisUri(), "--redis-file", file.toString(), "--queue", name));
    }

    @Test
    void noUrl_isAUsageError_thatNamesEveryWay() {
        Cli.Result r = cli().run("stats", "--queue", name);
        assertUsageError(r);
        assertThat(r.err()).contains("--redis").contains("--redis-file").contains("REDIS_URL");
    }

    @Test
    void unreadableFile_isAUsageError(@TempDir Path dir) {
        assertUsageError(
                cli().run("stats", "--redis-file", dir.resolve("missing").toString(), "--queue", name));
    }

    @Test
    void unreachableRedis_fromAFile_exits1_withoutShowingThePassword(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("redis-url"), "redis://user:p%40ss@127.0.0.1:1\n");
        Cli.Result r = cli().run("stats", "--redis-file", file.toString(), "--queue", name);
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("127.0.0.1:1").doesNotContain("p%40ss").doesNotContain("p@ss");
    }

    @Test
    void wrongPassword_exits1_withoutShowingIt() {
        Cli.Result r = cli().run("stats", "--redis", "redis://nobody:p%40ss@" + hostPort(), "--queue", name);
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).startsWith("queuekit: ").doesNotContain("p%40ss").doesNotContain("p@ss");
    }
}

package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.testing.RedisServer.Source;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/** With appendOnly(true) an acknowledged write survives SIGKILL and restart, on both local binaries. */
@Timeout(90)
class AppendOnlyCrashTest {

    @ParameterizedTest
    @EnumSource(
            value = Source.class,
            names = {"PATH", "EMBEDDED"})
    void acknowledgedWrite_survivesKillAndRestart(Source source) {
        try (RedisServer server =
                RedisServer.builder().source(source).appendOnly(true).start()) {
            try (Jedis jedis = Connections.connect(server)) {
                assertThat(jedis.configGet("appendfsync")).containsEntry("appendfsync", "always");
                jedis.set("survivor", "still here");
            }

            server.kill();
            assertThat(Connections.local(server).lastExitCode()).hasValue(128 + 9);
            server.restart();

            try (Jedis jedis = Connections.connect(server)) {
                assertThat(jedis.get("survivor")).isEqualTo("still here");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Source.class,
            names = {"PATH", "EMBEDDED"})
    void withoutAppendOnly_killLosesData(Source source) {
        try (RedisServer server = RedisServer.builder().source(source).start()) {
            try (Jedis jedis = Connections.connect(server)) {
                jedis.set("volatile", "gone after kill");
            }
            server.kill();
            server.restart();
            try (Jedis jedis = Connections.connect(server)) {
                assertThat(jedis.exists("volatile")).isFalse();
            }
        }
    }

    /**
     * Redis answers LOADING while it replays a large AOF; restart() must return only once the whole dataset
     * is back, so the first command after it sees every key.
     */
    @Test
    void restart_waitsUntilTheAofIsReplayed() {
        int keys = 300_000;
        try (RedisServer server =
                RedisServer.builder().source(Source.PATH).appendOnly(true).start()) {
            try (Jedis jedis = Connections.connect(server)) {
                Pipeline pipeline = jedis.pipelined();
                for (int batch = 0; batch < keys / 1_000; batch++) {
                    List<String> keysAndValues = new ArrayList<>();
                    for (int i = 0; i < 1_000; i++) {
                        keysAndValues.add("key:" + batch + ":" + i);
                        keysAndValues.add("value-" + i);
                    }
                    pipeline.mset(keysAndValues.toArray(String[]::new));
                }
                pipeline.sync();
                assertThat(jedis.dbSize()).isEqualTo(keys);
            }

            server.kill();
            server.restart();

            try (Jedis jedis = Connections.connect(server)) {
                assertThat(jedis.dbSize()).isEqualTo(keys);
            }
        }
    }
}

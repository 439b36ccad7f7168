package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.testing.RedisServer.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;

/** {@code RedisServer.Builder.sentinel()}: a Sentinel as a child process, the way {@link RedisSentinelGroup} starts its three. */
@Timeout(60)
class SentinelModeTest {

    @Test
    void sentinel_startsRedisServerInSentinelMode() {
        try (RedisServer sentinel = RedisServer.builder().sentinel().start();
                Jedis jedis = Connections.connect(sentinel)) {
            assertThat(sentinel.source()).isIn(Source.PATH, Source.EMBEDDED);
            assertThat(jedis.info("server")).contains("redis_mode:sentinel");
            assertThat(jedis.sentinelMasters()).isEmpty();
        }
    }

    @Test
    void sentinel_runsOnTheShippedBinaryToo() {
        try (RedisServer sentinel =
                        RedisServer.builder().sentinel().source(Source.EMBEDDED).start();
                Jedis jedis = Connections.connect(sentinel)) {
            assertThat(sentinel.version()).startsWith("6.2.");
            assertThat(jedis.info("server")).contains("redis_mode:sentinel");
        }
    }

    @Test
    void sentinel_keepsWhatItLearnedAcrossARestart() {
        try (RedisServer sentinel =
                RedisServer.builder().sentinel().requireProcessControl().start()) {
            String id;
            try (Jedis jedis = Connections.connect(sentinel)) {
                id = jedis.sentinelMyId();
            }
            sentinel.kill();
            sentinel.restart();
            try (Jedis jedis = Connections.connect(sentinel)) {
                assertThat(jedis.sentinelMyId()).isEqualTo(id);
            }
        }
    }

    @Test
    void sentinel_fromDockerOrUrl_isRefused() {
        assertThatThrownBy(() ->
                        RedisServer.builder().sentinel().source(Source.DOCKER).start())
                .isInstanceOf(RedisServerException.class)
                .hasMessageContaining("a Sentinel runs only as a child process (source PATH or EMBEDDED)")
                .hasMessageContaining("the DOCKER source");
        assertThatThrownBy(() -> RedisServer.builder()
                        .sentinel()
                        .source(Source.URL)
                        .url("redis://127.0.0.1:1")
                        .start())
                .isInstanceOf(RedisServerException.class)
                .hasMessageContaining("the URL source");
    }
}

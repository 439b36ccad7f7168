package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.testing.RedisServer.Source;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import redis.clients.jedis.Jedis;

/**
 * The URL source, exercised against a PATH server started here, so it works without any external Redis.
 * Surefire runs this module without REDIS_URL, so only the URLs set in these tests are seen. Runs alone:
 * the system properties it sets apply to every server start in this JVM.
 */
@Isolated
@Timeout(60)
class UrlSourceTest {

    private static RedisServer target;

    @BeforeAll
    static void startTarget() {
        target = RedisServer.builder().source(Source.PATH).start();
    }

    @AfterAll
    static void stopTarget() {
        target.close();
    }

    @AfterEach
    void clearProperties() {
        System.clearProperty(RedisServer.URL_PROPERTY);
        System.clearProperty(RedisServer.SOURCE_PROPERTY);
    }

    @Test
    void forcedUrl_fromBuilder_usesThatServer() {
        try (RedisServer server =
                RedisServer.builder().source(Source.URL).url(target.uri()).start()) {
            assertThat(server.source()).isEqualTo(Source.URL);
            assertThat(server.port()).isEqualTo(target.port());
            assertThat(server.host()).isEqualTo("127.0.0.1");
            assertThat(server.version()).isEqualTo(target.version());
            assertThat(server.supportsProcessControl()).isFalse();
            assertThat(server.dataDirectory()).isEmpty();
            assertThat(Connections.ping(server)).isEqualTo("PONG");
            assertThat(server.isRunning()).isTrue();
        }
    }

    @Test
    void forcedUrl_fromProperties_usesThatServer() {
        System.setProperty(RedisServer.SOURCE_PROPERTY, "url");
        System.setProperty(RedisServer.URL_PROPERTY, "127.0.0.1:" + target.port());
        try (RedisServer server = RedisServer.builder().start()) {
            assertThat(server.source()).isEqualTo(Source.URL);
            assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + target.port());
            assertThat(Connections.ping(server)).isEqualTo("PONG");
        }
    }

    @Test
    void auto_withUrlProperty_prefersTheUrl() {
        System.setProperty(RedisServer.URL_PROPERTY, target.uri());
        try (RedisServer server = RedisServer.builder().start()) {
            assertThat(server.source()).isEqualTo(Source.URL);
        }
    }

    @Test
    void auto_withUrlButRequireProcessControl_startsItsOwn() {
        System.setProperty(RedisServer.URL_PROPERTY, target.uri());
        try (RedisServer server = RedisServer.builder().requireProcessControl().start()) {
            assertThat(server.source()).isEqualTo(Source.PATH);
            assertThat(server.port()).isNotEqualTo(target.port());
        }
    }

    @Test
    void urlSource_refusesProcessControl() {
        try (RedisServer server =
                RedisServer.builder().source(Source.URL).url(target.uri()).start()) {
            assertThatThrownBy(server::kill)
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("cannot kill the external Redis at redis://127.0.0.1:" + target.port())
                    .hasMessageContaining("requireProcessControl()");
            assertThatThrownBy(server::stop).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(server::restart).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void close_leavesTheExternalServerRunning() {
        RedisServer server =
                RedisServer.builder().source(Source.URL).url(target.uri()).start();
        server.close();
        server.close();
        assertThat(target.isRunning()).isTrue();
        assertThat(Connections.ping(target)).isEqualTo("PONG");
    }

    @Test
    void urlWithPassword_isUsedAndRedactedInToString() {
        try (RedisServer secured = RedisServer.builder()
                        .source(Source.PATH)
                        .config("requirepass", "pw")
                        .start();
                RedisServer server = RedisServer.builder()
                        .source(Source.URL)
                        .url(secured.uri())
                        .start()) {
            assertThat(server.uri()).contains(":pw@");
            assertThat(server.toString()).doesNotContain("pw@").contains("***@");
            try (Jedis jedis = Connections.connect(server)) {
                assertThat(jedis.ping()).isEqualTo("PONG");
            }
        }
    }

    @Test
    void unreachableUrl_failsWithinTheTimeoutSayingWhatWasTried() throws IOException {
        int deadPort;
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            deadPort = probe.getLocalPort();
        }
        System.setProperty(RedisServer.URL_PROPERTY, "redis://127.0.0.1:" + deadPort);
        assertThatThrownBy(() -> RedisServer.builder()
                        .startupTimeout(Duration.ofMillis(500))
                        .start())
                .isInstanceOf(RedisServerException.class)
                .hasMessageContaining("127.0.0.1:" + deadPort)
                .hasMessageContaining("-D" + RedisServer.URL_PROPERTY)
                .hasMessageContaining("did not answer PING");
    }

    @Test
    void forcedUrl_withoutAnyUrl_saysHowToSetOne() {
        assertThatThrownBy(() -> RedisServer.builder().source(Source.URL).start())
                .isInstanceOf(RedisServerException.class)
                .hasMessageContaining("no URL is set")
                .hasMessageContaining(RedisServer.URL_ENV);
    }

    @Test
    void forcedUrl_contradictingSettings_areRejected() {
        assertThatThrownBy(() -> RedisServer.builder()
                        .source(Source.URL)
                        .url(target.uri())
                        .requireProcessControl()
                        .start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("requireProcessControl()");
        assertThatThrownBy(() -> RedisServer.builder()
                        .source(Source.URL)
                        .url(target.uri())
                        .appendOnly(true)
                        .start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot honour appendOnly(true)");
    }
}

package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.testing.RedisServer.Source;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * AUTO resolution on this machine (redis-server on PATH, no REDIS_URL) and the per-JVM shared server.
 * Runs alone: it sets the system property every server start in this JVM reads.
 */
@Isolated
@Timeout(60)
class AutoSourceTest {

    @AfterEach
    void clearProperty() {
        System.clearProperty(RedisServer.SOURCE_PROPERTY);
    }

    @Test
    void auto_withRedisOnPath_picksPath() {
        try (RedisServer server = RedisServer.builder().start()) {
            assertThat(server.source()).isEqualTo(Source.PATH);
            assertThat(Connections.ping(server)).isEqualTo("PONG");
        }
    }

    @Test
    void sourceProperty_auto_isTheDefault() {
        System.setProperty(RedisServer.SOURCE_PROPERTY, "AUTO");
        try (RedisServer server = RedisServer.builder().start()) {
            assertThat(server.source()).isEqualTo(Source.PATH);
        }
    }

    @Test
    void sourceProperty_unknown_isRejectedNamingTheChoices() {
        System.setProperty(RedisServer.SOURCE_PROPERTY, "kubernetes");
        assertThatThrownBy(() -> RedisServer.builder().start())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auto, url, path, docker, embedded")
                .hasMessageContaining("kubernetes");
    }

    @Test
    void shared_isOneRunningServerPerJvm_thatCloseDoesNotStop() {
        RedisServer shared = RedisServer.shared();
        assertThat(RedisServer.shared()).isSameAs(shared);
        assertThat(Connections.ping(shared)).isEqualTo("PONG");

        shared.close();

        assertThat(shared.isRunning()).isTrue();
        assertThat(Connections.ping(RedisServer.shared())).isEqualTo("PONG");
    }
}

package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.testing.RedisServer.Source;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The binary shipped in the embedded-redis jar works on this machine even though redis-server is on PATH,
 * when forced with the system property, as a CI job without redis-server would get it. Runs alone: the
 * property applies to every server start in this JVM.
 */
@Isolated
@Timeout(60)
class EmbeddedSourceTest {

    @AfterEach
    void clearProperty() {
        System.clearProperty(RedisServer.SOURCE_PROPERTY);
    }

    @Test
    void sourceProperty_embedded_startsTheShippedBinary() {
        assertThat(PathLookup.find("redis-server", System.getenv("PATH"))).isPresent();
        System.setProperty(RedisServer.SOURCE_PROPERTY, "embedded");

        try (RedisServer server = RedisServer.builder().start()) {
            assertThat(server.source()).isEqualTo(Source.EMBEDDED);
            assertThat(server.version()).startsWith("6.2.");
            assertThat(server.supportsProcessControl()).isTrue();
            assertThat(Connections.ping(server)).isEqualTo("PONG");
        }
    }

    @Test
    void builderSource_winsOverTheProperty() {
        System.setProperty(RedisServer.SOURCE_PROPERTY, "embedded");
        try (RedisServer server = RedisServer.builder().source(Source.PATH).start()) {
            assertThat(server.source()).isEqualTo(Source.PATH);
        }
    }

    @Test
    void auto_withoutRedisOnPath_fallsBackToEmbedded() {
        Settings.Platform noRedisOnPath =
                new Settings.Platform("", System.getProperty("os.name"), System.getProperty("os.arch"));
        try (RedisServer server = RedisServer.builder()
                .requireProcessControl()
                .platform(noRedisOnPath)
                .start()) {
            assertThat(server.source()).isEqualTo(Source.EMBEDDED);
            assertThat(Connections.ping(server)).isEqualTo("PONG");
        }
    }

    /** With Testcontainers on the classpath AUTO asks for a Docker engine before falling back to the binary. */
    @Test
    void auto_withoutRedisOnPath_triesDockerThenEmbedded() {
        Settings.Platform noRedisOnPath =
                new Settings.Platform("", System.getProperty("os.name"), System.getProperty("os.arch"));
        Source expected = DockerServer.dockerAvailable() ? Source.DOCKER : Source.EMBEDDED;
        try (RedisServer server = RedisServer.builder().platform(noRedisOnPath).start()) {
            assertThat(server.source()).isEqualTo(expected);
            assertThat(Connections.ping(server)).isEqualTo("PONG");
        }
    }

    @Test
    void auto_withNothingAvailable_explainsEachSourceAndHowToGetRedis() {
        Settings.Platform nothing = new Settings.Platform("", "Linux", "sparc");
        assertThatThrownBy(() -> RedisServer.builder()
                        .requireProcessControl()
                        .platform(nothing)
                        .start())
                .isInstanceOf(RedisServerException.class)
                .hasMessageContaining("No Redis server could be found or started. Tried, in order:")
                .hasMessageContaining("path: no executable redis-server on PATH")
                .hasMessageContaining("docker: skipped because the builder asked for requireProcessControl()")
                .hasMessageContaining("embedded: embedded-redis ships no redis-server for os.name=Linux, os.arch=sparc")
                .hasMessageContaining("apt-get install redis-server")
                .hasMessageContaining(RedisServer.URL_ENV);
    }

    @Test
    void embedded_killAndRestart_keepPortAndDirectory() {
        try (RedisServer server = RedisServer.builder().source(Source.EMBEDDED).start()) {
            int port = server.port();
            server.kill();
            assertThat(server.isRunning()).isFalse();
            server.restart();
            assertThat(server.port()).isEqualTo(port);
            assertThat(Files.isDirectory(server.dataDirectory().orElseThrow())).isTrue();
            assertThat(Connections.ping(server)).isEqualTo("PONG");
        }
    }

    @Test
    void resourceFor_coversTheShippedPlatforms() throws StartFailure {
        assertThat(EmbeddedBinary.resourceFor("Linux", "amd64")).isEqualTo("redis-server-6.2.6-v5-linux-amd64");
        assertThat(EmbeddedBinary.resourceFor("Linux", "aarch64")).isEqualTo("redis-server-6.2.7-linux-arm64");
        assertThat(EmbeddedBinary.resourceFor("Mac OS X", "x86_64")).isEqualTo("redis-server-6.2.6-v5-darwin-amd64");
        assertThat(EmbeddedBinary.resourceFor("Mac OS X", "aarch64")).isEqualTo("redis-server-6.2.6-v5-darwin-arm64");
        for (String resource : new String[] {
            "redis-server-6.2.6-v5-linux-amd64",
            "redis-server-6.2.7-linux-arm64",
            "redis-server-6.2.6-v5-darwin-amd64",
            "redis-server-6.2.6-v5-darwin-arm64"
        }) {
            assertThat(getClass().getClassLoader().getResource(resource))
                    .as(resource)
                    .isNotNull();
        }
        assertThatThrownBy(() -> EmbeddedBinary.resourceFor("Windows 11", "amd64"))
                .hasMessageContaining("only Redis 5 for Windows");
    }
}

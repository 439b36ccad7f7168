package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.testing.RedisServer.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The DOCKER source through Testcontainers. Needs a running Docker engine, a capability some machines
 * genuinely lack (a docker client without a daemon is not enough): there the test is aborted by an
 * assumption that says so, rather than reported as passed. The other sources are tested without Docker.
 */
@Timeout(180)
class DockerSourceTest {

    @Test
    void forcedDocker_answersPingAndRefusesProcessControl() {
        assumeTrue(
                DockerServer.dockerAvailable(),
                "no Docker engine is available to Testcontainers on this machine, so the DOCKER source cannot run");
        try (RedisServer server = RedisServer.builder().source(Source.DOCKER).start()) {
            assertThat(server.source()).isEqualTo(Source.DOCKER);
            assertThat(server.version()).startsWith("7.");
            assertThat(Connections.ping(server)).isEqualTo("PONG");
            assertThat(server.supportsProcessControl()).isFalse();
            assertThatThrownBy(server::kill).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void forcedDocker_withRequireProcessControl_isRejected() {
        assertThatThrownBy(() -> RedisServer.builder()
                        .source(Source.DOCKER)
                        .requireProcessControl()
                        .start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("requireProcessControl()");
    }
}

package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.testing.RedisServer.Source;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;

/** The PATH source and everything about managing a child process: lifecycle, kill, restart, failures. */
@Timeout(60)
class PathSourceTest {

    private static RedisServer.Builder path() {
        return RedisServer.builder().source(Source.PATH);
    }

    @Nested
    @DisplayName("start")
    class Start {

        @Test
        void start_forcedPath_answersPingOnLoopback() {
            try (RedisServer server = path().start()) {
                assertThat(server.source()).isEqualTo(Source.PATH);
                assertThat(server.host()).isEqualTo("127.0.0.1");
                assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
                assertThat(server.version()).matches("\\d+\\.\\d+\\.\\d+");
                assertThat(server.supportsProcessControl()).isTrue();
                assertThat(server.isRunning()).isTrue();
                assertThat(Connections.ping(server)).isEqualTo("PONG");
            }
        }

        @Test
        void start_twice_givesTwoServersOnDifferentPortsAndDirectories() {
            try (RedisServer a = path().start();
                    RedisServer b = path().start()) {
                assertThat(a.port()).isNotEqualTo(b.port());
                assertThat(a.dataDirectory()).isNotEqualTo(b.dataDirectory());
                try (Jedis ja = Connections.connect(a);
                        Jedis jb = Connections.connect(b)) {
                    ja.set("only-in-a", "1");
                    assertThat(jb.exists("only-in-a")).isFalse();
                }
            }
        }

        @Test
        void start_withConfig_appliesDirectives() {
            try (RedisServer server = path().config("maxmemory-policy", "noeviction")
                            .config("save", "60 1")
                            .start();
                    Jedis jedis = Connections.connect(server)) {
                assertThat(jedis.configGet("maxmemory-policy")).containsEntry("maxmemory-policy", "noeviction");
                assertThat(jedis.configGet("save")).containsEntry("save", "60 1");
            }
        }

        @Test
        void start_withRequirepass_putsPasswordIntoUri() {
            try (RedisServer server = path().config("requirepass", "s3cret").start()) {
                assertThat(server.uri()).isEqualTo("redis://:s3cret@127.0.0.1:" + server.port());
                assertThat(server.version()).isNotEqualTo("unknown");
                assertThat(Connections.ping(server)).isEqualTo("PONG");
            }
        }

        @Test
        void start_badDirective_failsWithTheServersComplaint() {
            assertThatThrownBy(() -> path().config("bogus-directive", "yes").start())
                    .isInstanceOf(RedisServerException.class)
                    .hasMessageContaining("rejected its configuration")
                    .hasMessageContaining("Bad directive or wrong number of arguments")
                    .hasMessageContaining("bogus-directive yes");
        }

        @Test
        void start_badDirectiveInAuto_doesNotTryOtherSources() {
            assertThatThrownBy(() -> RedisServer.builder()
                            .source(Source.AUTO)
                            .config("bogus-directive", "yes")
                            .start())
                    .isInstanceOf(RedisServerException.class)
                    .hasMessageContaining("so no other source was tried")
                    .hasMessageContaining("Bad directive or wrong number of arguments");
        }

        @Test
        void start_fixedPortInUse_failsSayingSo() throws IOException {
            try (ServerSocket taken = bindLoopback()) {
                assertThatThrownBy(() -> path().port(taken.getLocalPort()).start())
                        .isInstanceOf(RedisServerException.class)
                        .hasMessageContaining("port " + taken.getLocalPort() + " is in use")
                        .hasMessageContaining("Address already in use");
            }
        }

        @Test
        void start_fixedPort_listensThere() throws IOException {
            int port;
            try (ServerSocket probe = bindLoopback()) {
                port = probe.getLocalPort();
            }
            try (RedisServer server = path().port(port).start()) {
                assertThat(server.port()).isEqualTo(port);
                assertThat(Connections.ping(server)).isEqualTo("PONG");
            }
        }

        @Test
        void start_portTakenBetweenChoiceAndBind_retriesOnAnotherPort() throws IOException {
            try (ServerSocket taken = bindLoopback()) {
                AtomicInteger calls = new AtomicInteger();
                RedisServer.Builder builder = path().portChooser(
                                () -> calls.getAndIncrement() == 0 ? taken.getLocalPort() : FreePorts.next());
                try (RedisServer server = builder.start()) {
                    assertThat(calls).hasValue(2);
                    assertThat(server.port()).isNotEqualTo(taken.getLocalPort());
                    assertThat(Connections.ping(server)).isEqualTo("PONG");
                }
            }
        }

        @Test
        void start_portAlwaysTaken_givesUpAfterAFewAttempts() throws IOException {
            try (ServerSocket taken = bindLoopback()) {
                assertThatThrownBy(() -> path().portChooser(taken::getLocalPort).start())
                        .isInstanceOf(RedisServerException.class)
                        .hasMessageContaining("took the chosen free port 5 times in a row")
                        .hasMessageContaining("Address already in use");
            }
        }
    }

    @Nested
    @DisplayName("process control")
    class ProcessControl {

        @Test
        void kill_sendsSigkillAndWaitsForExit() {
            try (RedisServer server = path().start()) {
                ProcessHandle handle = Connections.local(server).processHandle().orElseThrow();
                server.kill();
                assertThat(handle.isAlive()).isFalse();
                assertThat(server.isRunning()).isFalse();
                // Java reports a process ended by signal N as 128 + N; SIGKILL is 9.
                assertThat(Connections.local(server).lastExitCode()).hasValue(128 + 9);
            }
        }

        @Test
        void stop_shutsDownGracefully() throws IOException {
            try (RedisServer server = path().start()) {
                server.stop();
                assertThat(server.isRunning()).isFalse();
                assertThat(Connections.local(server).lastExitCode()).hasValue(0);
                Path log = server.dataDirectory().orElseThrow().resolve("redis.log");
                assertThat(Files.readString(log)).contains("Received SIGTERM");
            }
        }

        @Test
        void restart_afterKill_comesBackOnTheSamePort() {
            try (RedisServer server = path().start()) {
                int port = server.port();
                String uri = server.uri();
                long firstPid =
                        Connections.local(server).processHandle().orElseThrow().pid();
                server.kill();
                server.restart();
                assertThat(server.port()).isEqualTo(port);
                assertThat(server.uri()).isEqualTo(uri);
                assertThat(server.isRunning()).isTrue();
                assertThat(Connections.local(server)
                                .processHandle()
                                .orElseThrow()
                                .pid())
                        .isNotEqualTo(firstPid);
                assertThat(Connections.ping(server)).isEqualTo("PONG");
            }
        }

        @Test
        void restart_whileRunning_stopsFirst() {
            try (RedisServer server = path().start()) {
                ProcessHandle first = Connections.local(server).processHandle().orElseThrow();
                server.restart();
                assertThat(first.isAlive()).isFalse();
                assertThat(Connections.ping(server)).isEqualTo("PONG");
            }
        }

        @Test
        void close_killsTheProcessAndDeletesTheDirectory() {
            RedisServer server = path().start();
            Path dir = server.dataDirectory().orElseThrow();
            ProcessHandle handle = Connections.local(server).processHandle().orElseThrow();
            assertThat(dir).isDirectory();

            server.close();

            assertThat(handle.isAlive()).isFalse();
            assertThat(dir).doesNotExist();
            assertThat(server.isRunning()).isFalse();
            server.close();
            assertThatThrownBy(server::restart)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
        }

        @Test
        void close_afterKill_stillDeletesTheDirectory() {
            RedisServer server = path().start();
            Path dir = server.dataDirectory().orElseThrow();
            server.kill();
            server.close();
            assertThat(dir).doesNotExist();
        }
    }

    private static ServerSocket bindLoopback() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        return socket;
    }
}

package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.testing.RedisServer.Source;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A JVM that exits without closing its servers still takes their processes and directories with it. */
@Timeout(60)
class ShutdownHookTest {

    /** Runs in a child JVM: starts a server, reports it, and exits without close(). */
    public static final class ForgetfulMain {
        public static void main(String[] args) {
            RedisServer server =
                    RedisServer.builder().source(Source.valueOf(args[0])).start();
            System.out.println("SERVER "
                    + Connections.local(server).processHandle().orElseThrow().pid() + " "
                    + server.dataDirectory().orElseThrow());
            System.out.flush();
            System.exit(0);
        }
    }

    @Test
    void jvmExit_killsForgottenServersAndDeletesTheirDirectories() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), ForgetfulMain.class.getName(), "PATH")
                .redirectErrorStream(true)
                .start();
        String report = null;
        StringBuilder output = new StringBuilder();
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                output.append(line).append('\n');
                if (line.startsWith("SERVER ")) {
                    report = line;
                }
            }
        }
        assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).as("child JVM exited").isTrue();
        assertThat(report).as("child JVM output:\n%s", output).isNotNull();

        String[] parts = report.split(" ", 3);
        long pid = Long.parseLong(parts[1]);
        Path dir = Path.of(parts[2]);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        assertThat(Files.exists(dir)).isFalse();
    }
}

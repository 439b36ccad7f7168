package io.queuekit.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.testing.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The application as {@code spring-boot:process-aot} left it, started from its jar with
 * {@code -Dspring.aot.enabled=true} (the generated bean definitions instead of the configuration
 * classes, as in a native image) on a real Redis, and used over HTTP. Failsafe runs it after the
 * jar is packaged.
 */
@Timeout(180)
class OrdersAotIT {
    private static final Duration START = Duration.ofSeconds(90);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json = JsonMapper.builder().build();
    private final List<Process> started = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void stop() throws InterruptedException {
        for (Process app : started) {
            app.destroy(); // SIGTERM: a graceful shutdown, as a platform stops it
            if (!app.waitFor(30, TimeUnit.SECONDS)) {
                app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void processedApplication_startsInAotMode_andExchangesMessagesOverItsQueues() throws Exception {
        Path log = dir.resolve("orders.log");
        Process app = start(log, "--orders.reminder-delay=1s");
        await("application started")
                .atMost(START)
                .until(() -> !app.isAlive() || read(log).contains("Started "));
        assertThat(app.isAlive()).as(read(log)).isTrue();
        assertThat(read(log)).contains("Starting AOT-processed OrdersApplication");
        Matcher port = PORT.matcher(read(log));
        assertThat(port.find()).as(read(log)).isTrue();
        String base = "http://127.0.0.1:" + port.group(1);

        // an order travels the orders queue to the listener, which schedules its reminder on the delay queue
        String orderId = placeOrder(base, "{\"customer\":\"ada\",\"total\":42.50}");
        await("order handled").atMost(WAIT).until(() -> read(log).contains("Handled order " + orderId));
        await("reminder delivered").atMost(WAIT).until(() -> read(log).contains("Reminded ada of order " + orderId));

        // an order no retry can fix is dead-lettered at once (noRetryFor), and reads back from the endpoint
        String invalidId = placeOrder(base, "{\"customer\":\"bob\",\"total\":0}");
        await("invalid order dead-lettered")
                .atMost(WAIT)
                .until(() ->
                        get(base + "/actuator/queues/orders").at("/stats/dead").asInt() == 1);
        JsonNode dead = get(base + "/actuator/queues/orders/dead-letters");
        assertThat(dead.size()).isEqualTo(1);
        assertThat(dead.get(0).at("/payload/id").asString()).isEqualTo(invalidId);
        assertThat(dead.get(0).at("/payload/customer").asString()).isEqualTo("bob");
        assertThat(dead.get(0).at("/reason").asString()).contains("InvalidOrderException");

        JsonNode health = get(base + "/actuator/health");
        assertThat(health.at("/components/queuekit/status").asString()).isEqualTo("UP");
        assertThat(health.at("/components/queuekit/details/redis").asString()).isEqualTo("PONG");
    }

    @Test
    void queueTypeOtherThanProcessed_failsStartUp_namingIt() throws Exception {
        Path log = dir.resolve("orders-changed.log");
        Process app = start(log, "--queuekit.queues.reminders.type=list");
        assertThat(app.waitFor(START.toSeconds(), TimeUnit.SECONDS))
                .as("application exits")
                .isTrue();
        assertThat(app.exitValue()).isNotZero();
        assertThat(read(log))
                .contains("reminders=io.queuekit.MessageQueue<io.queuekit.examples.orders.Reminder>")
                .contains("reminders=io.queuekit.DelayQueue<io.queuekit.examples.orders.Reminder>")
                .contains("processed ahead of time");
    }

    /** The packaged application with AOT mode on, its own keys on the shared server, output to {@code log}. */
    private Process start(Path log, String... args) throws IOException {
        RedisServer redis = RedisServer.shared();
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dspring.aot.enabled=true",
                "-jar",
                System.getProperty("orders.jar"),
                "--server.port=0",
                "--spring.data.redis.host=" + redis.host(),
                "--spring.data.redis.port=" + redis.port(),
                // settings read at run time, not fixed by the AOT processing
                "--queuekit.queues.orders.key-prefix=orders-" + run,
                "--queuekit.queues.reminders.key-prefix=reminders-" + run,
                "--spring.lifecycle.timeout-per-shutdown-phase=10s"));
        command.addAll(List.of(args));
        Process app = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        started.add(app);
        return app;
    }

    private String placeOrder(String base, String body) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(base + "/orders"))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return json.readTree(response.body()).get("orderId").asString();
    }

    private JsonNode get(String uri) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(uri))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json.readTree(response.body());
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.queuekit.redis.list;

import static io.queuekit.Semantics.Guarantee.AT_LEAST_ONCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.ConsumeOptions;
import io.queuekit.QueueException;
import io.queuekit.testing.LogCapture;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import redis.clients.jedis.RedisClient;

/**
 * Redis killed under a consumer of several workers: each of them fails on every retry, and the log
 * gets one stack trace for the outage, then lines without one (the module's simplelogger.properties
 * shows every failure at DEBUG), and one line when fetching works again. Runs alone: its
 * {@link LogCapture} replaces {@code System.err} for the whole JVM.
 */
@Isolated
@Timeout(90)
class RedisListQueueOutageLogTest {
    private static final int WORKERS = 4;
    private static final Pattern COUNTED = Pattern.compile("\\((\\d+) more since the last report, not logged\\)");
    private static final Pattern RECOVERED = Pattern.compile("fetching works again after (\\d+) failed attempt");
    private static final Pattern THREAD = Pattern.compile("\\[([^\\]]*)\\]");

    @Test
    void redisKilled_everyWorkerRetrying_logsOneStackTrace_thenOneLineWhenRedisIsBack() throws Exception {
        String name = Queues.unique("outage");
        Set<String> handled = ConcurrentHashMap.newKeySet();
        try (RedisServer server = RedisServer.builder().requireProcessControl().start();
                RedisClient client = RedisClients.create(server);
                RedisListQueue<String> q = Queues.strings(client, name, AT_LEAST_ONCE);
                LogCapture log = new LogCapture()) {
            q.consume(
                    d -> handled.add(d.payload()),
                    ConsumeOptions.builder()
                            .concurrency(WORKERS)
                            .pollTimeout(Duration.ofMillis(500))
                            .build());
            q.send("before");
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("before"));

            server.kill();
            // every worker fails and retries (after 0.1 s, 0.2 s, 0.4 s, ...)
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                Map<String, Long> perWorker = failures(log, name).stream()
                        .collect(Collectors.groupingBy(RedisListQueueOutageLogTest::thread, Collectors.counting()));
                return perWorker.size() == WORKERS
                        && perWorker.values().stream().allMatch(n -> n >= 3);
            });
            server.restart();
            // the client's pooled connections died with the server: a send may fail once per stale one
            await().atMost(Duration.ofSeconds(10))
                    .ignoreExceptionsInstanceOf(QueueException.class)
                    .until(() -> q.send("after") != null);
            await().atMost(Duration.ofSeconds(30)).until(() -> handled.contains("after"));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !log.records(name + ": fetching works again").isEmpty());

            List<LogCapture.Record> warned = failures(log, name).stream()
                    .filter(r -> r.line().contains(" WARN "))
                    .toList();
            assertThat(warned)
                    .filteredOn(LogCapture.Record::hasStackTrace)
                    .extracting(LogCapture.Record::line)
                    .as("lines with a stack trace")
                    .hasSize(1);
            assertThat(warned.get(0).hasStackTrace())
                    .as("the first failure, with its stack trace")
                    .isTrue();
            assertThat(warned.get(0).stackTrace()).anyMatch(l -> l.startsWith("io.queuekit.TransportException"));
            // an outage that outlasted the 10 s period: lines with a count, no stack trace
            assertThat(warned.subList(1, warned.size()))
                    .allSatisfy(r -> assertThat(r.line()).containsPattern(COUNTED));
            assertThat(failures(log, name))
                    .filteredOn(r -> r.line().contains(" DEBUG "))
                    .allSatisfy(r -> assertThat(r.hasStackTrace()).isFalse());

            assertThat(log.records(name + ": fetching works again"))
                    .singleElement()
                    .satisfies(r -> {
                        assertThat(r.line()).contains(" INFO ");
                        Matcher m = RECOVERED.matcher(r.line());
                        assertThat(m.find()).isTrue();
                        assertThat(Integer.parseInt(m.group(1))).isGreaterThanOrEqualTo(WORKERS * 3);
                    });
        }
    }

    /** Every logged fetch failure of the queue's consumer, at WARN or DEBUG. */
    private static List<LogCapture.Record> failures(LogCapture log, String name) {
        return log.records("queuekit " + name + ": fetch failed, retrying");
    }

    private static String thread(LogCapture.Record r) {
        Matcher m = THREAD.matcher(r.line());
        return m.find() ? m.group(1) : "";
    }
}

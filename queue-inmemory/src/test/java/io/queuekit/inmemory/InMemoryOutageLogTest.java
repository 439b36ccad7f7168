package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.ConsumeOptions;
import io.queuekit.testing.LogCapture;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A fetch that fails on every retry in every worker, as in a Redis outage (here the queue's clock
 * throws): the log gets one stack trace, at most a counted line per period (10 s, so the lines
 * themselves are checked on a virtual clock in {@code RateLimitedLogTest}), and one line when
 * fetching works again that counts every failure; never a stack trace per retry per worker. Runs
 * alone: its {@link LogCapture} replaces {@code System.err} for the whole JVM.
 */
@Isolated
@Timeout(30)
class InMemoryOutageLogTest {
    private static final int WORKERS = 4;
    private static final Pattern COUNTED = Pattern.compile("\\((\\d+) more since the last report, not logged\\)");
    private static final Pattern RECOVERED = Pattern.compile("fetching works again after (\\d+) failed attempt");

    /** The system clock, except that it throws while failing, counting the calls per thread. */
    private static final class FailingClock extends Clock {
        volatile String failWith;
        final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();

        @Override
        public Instant instant() {
            String message = failWith;
            if (message != null) {
                failures.computeIfAbsent(Thread.currentThread().getName(), t -> new AtomicInteger())
                        .incrementAndGet();
                throw new IllegalStateException(message);
            }
            return Instant.now();
        }

        int total() {
            return failures.values().stream().mapToInt(AtomicInteger::get).sum();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void fetchFailingInEveryWorker_logsOneStackTrace_andOneLineWhenItWorksAgain_countingEveryFailure() {
        String name = "outage-" + UUID.randomUUID().toString().substring(0, 8);
        FailingClock clock = new FailingClock();
        Set<String> handled = ConcurrentHashMap.newKeySet();
        try (LogCapture log = new LogCapture();
                InMemoryMessageQueue<String> q =
                        InMemoryMessageQueue.<String>builder(name).clock(clock).build()) {
            q.consume(
                    d -> handled.add(d.payload()),
                    ConsumeOptions.builder()
                            .concurrency(WORKERS)
                            .pollTimeout(Duration.ofMillis(100))
                            .build());

            String broken = "clock broken for " + name;
            clock.failWith = broken;
            // every worker fails and retries (after 0.1 s, 0.2 s, 0.4 s, ...)
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> clock.failures.size() == WORKERS
                            && clock.failures.values().stream().allMatch(n -> n.get() >= 3));

            clock.failWith = null;
            q.send("after");
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("after"));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !log.records(name + ": fetching works").isEmpty());

            List<LogCapture.Record> failed = fetchFailures(log, name);
            assertThat(failed.get(0).hasStackTrace())
                    .as("the first failure, with its stack trace")
                    .isTrue();
            assertThat(failed.get(0).stackTrace().get(0)).isEqualTo("java.lang.IllegalStateException: " + broken);
            assertThat(failed)
                    .filteredOn(LogCapture.Record::hasStackTrace)
                    .extracting(LogCapture.Record::line)
                    .as("lines with a stack trace")
                    .hasSize(1);
            // on a machine so slow that the outage outlasted the period: lines with a count, no stack trace
            List<LogCapture.Record> later = failed.subList(1, failed.size());
            assertThat(later)
                    .allSatisfy(r -> assertThat(r.line()).contains(broken).containsPattern(COUNTED));
            int counted =
                    later.stream().mapToInt(r -> number(COUNTED, r.line())).sum();
            assertThat(failed.size() + counted).isLessThanOrEqualTo(clock.total());

            List<LogCapture.Record> back = log.records(name + ": fetching works again");
            assertThat(back).singleElement().satisfies(r -> {
                assertThat(r.line()).contains(" INFO ");
                assertThat(r.hasStackTrace()).isFalse();
                // all of them, but for a worker that had read the clock as broken just before it was mended
                // and failed after another one logged this line
                assertThat(number(RECOVERED, r.line())).isBetween(clock.total() - WORKERS + 1, clock.total());
            });
        }
    }

    private static List<LogCapture.Record> fetchFailures(LogCapture log, String name) {
        return log.records("queuekit " + name + ": fetch failed, retrying").stream()
                .filter(r -> r.line().contains(" WARN "))
                .toList();
    }

    private static int number(Pattern p, String line) {
        Matcher m = p.matcher(line);
        assertThat(m.find()).as("%s in %s", p, line).isTrue();
        return Integer.parseInt(m.group(1));
    }
}

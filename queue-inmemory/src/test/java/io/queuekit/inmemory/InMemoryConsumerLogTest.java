package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.ConsumeOptions;
import io.queuekit.Subscription;
import io.queuekit.testing.LogCapture;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A handler that throws is not silent: its failure is logged at WARN with the exception, and the
 * dead-lettering that ends its last attempt logs a line of its own; the same for a handler that
 * dead-letters a message itself. A close that waits for running handlers says so. Runs alone: its
 * {@link LogCapture} replaces {@code System.err} for the whole JVM.
 */
@Isolated
@Timeout(30)
class InMemoryConsumerLogTest {

    @Test
    void aThrowingHandler_logsItsExceptionAtWarn_andTheDeadLettering() {
        String name = "failing-" + UUID.randomUUID().toString().substring(0, 8);
        try (LogCapture log = new LogCapture();
                InMemoryMessageQueue<String> q = InMemoryMessageQueue.<String>builder(name)
                        .maxAttempts(2)
                        .build()) {
            q.consume(
                    d -> {
                        throw new IllegalStateException("no stock for " + d.payload());
                    },
                    ConsumeOptions.builder()
                            .backoff(Duration.ZERO, Duration.ZERO)
                            .build());
            q.send("order-1");
            await().atMost(Duration.ofSeconds(10)).until(() -> q.deadLetters().size() == 1);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !log.records(name + ": dead-lettered").isEmpty());

            assertThat(log.records("queuekit " + name + ": the handler failed on"))
                    .first()
                    .satisfies(r -> {
                        assertThat(r.line()).contains(" WARN ").contains("(attempt 1 of 2); retrying in PT0S");
                        assertThat(r.stackTrace().get(0))
                                .isEqualTo("java.lang.IllegalStateException: no stock for order-1");
                    });
            assertThat(log.records("queuekit " + name + ": dead-lettered"))
                    .singleElement()
                    .satisfies(r -> assertThat(r.line())
                            .contains(" WARN ")
                            .contains("on attempt 2")
                            .contains("java.lang.IllegalStateException: no stock for order-1"));
        }
    }

    @Test
    void aHandlerThatDeadLettersItself_logsTheDeadLettering() {
        String name = "rejecting-" + UUID.randomUUID().toString().substring(0, 8);
        try (LogCapture log = new LogCapture();
                InMemoryMessageQueue<String> q =
                        InMemoryMessageQueue.<String>builder(name).build()) {
            q.consume(d -> d.deadLetter("invalid order " + d.payload()));
            q.send("order-2");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !log.records(name + ": dead-lettered").isEmpty());
            assertThat(log.records("queuekit " + name + ": dead-lettered"))
                    .singleElement()
                    .satisfies(r -> assertThat(r.line()).contains("on attempt 1: invalid order order-2"));
        }
    }

    @Test
    void closingWhileAHandlerRuns_saysWhatItWaitsFor() throws Exception {
        String name = "closing-" + UUID.randomUUID().toString().substring(0, 8);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (LogCapture log = new LogCapture();
                InMemoryMessageQueue<String> q =
                        InMemoryMessageQueue.<String>builder(name).build()) {
            Subscription consumer = q.consume(d -> {
                running.countDown();
                release.await();
            });
            q.send("order-3");
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
            Thread closing = new Thread(consumer::close);
            closing.start();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !log.records(name + ": closing").isEmpty());
            assertThat(log.records("queuekit " + name + ": closing"))
                    .singleElement()
                    .satisfies(r -> assertThat(r.line())
                            .contains(" INFO ")
                            .contains("waiting up to PT30S for 1 running handler(s) to finish"));
            release.countDown();
            closing.join(10_000);
            assertThat(closing.isAlive()).isFalse();
        }
    }
}

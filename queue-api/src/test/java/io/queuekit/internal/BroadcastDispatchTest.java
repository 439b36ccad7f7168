package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Headers;
import io.queuekit.SerializationException;
import io.queuekit.spi.QueueMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/** The listener side every broadcast transport shares, fed by hand. */
@Timeout(10)
class BroadcastDispatchTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final List<BroadcastDispatch<byte[], String>> started = new ArrayList<>();
    private final List<String> got = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        started.forEach(BroadcastDispatch::beginClose);
    }

    private BroadcastDispatch<byte[], String> start(
            QueueMetrics.Observer observer, int maxItems, BroadcastDispatch.Listener<String> listener) {
        BroadcastRuntime<BroadcastRuntime.Member> runtime = new BroadcastRuntime<>(
                "news",
                "broadcaster news",
                observer,
                Duration.ofSeconds(1),
                LoggerFactory.getLogger(BroadcastDispatchTest.class));
        Function<byte[], String> decode = bytes -> {
            String s = new String(bytes, StandardCharsets.UTF_8);
            if (s.startsWith("bad")) {
                throw new SerializationException("cannot decode " + s, null);
            }
            return s;
        };
        BroadcastDispatch<byte[], String> d = new BroadcastDispatch<>(
                runtime,
                "queuekit-news-subscriber-1",
                "news",
                maxItems,
                Long.MAX_VALUE,
                decode,
                bytes -> Headers.empty(),
                listener,
                () -> {});
        started.add(d);
        d.start();
        return d;
    }

    private static Inbound<byte[]> message(String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        return Inbound.message(body, null, body.length, System.nanoTime());
    }

    @Test
    void messagesTakenOutInABatch_countAgainstTheBound_untilHandedToTheListener() throws Exception {
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch secondHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1); // closing interrupts the wait
        BroadcastDispatch<byte[], String> d = start(QueueMetrics.Observer.NONE, 4, (channel, m, h) -> {
            got.add(m);
            if (m.equals("m0")) {
                firstHeld.countDown();
                release.await();
            } else if (m.equals("m1")) {
                secondHeld.countDown();
                never.await();
            }
        });
        assertThat(d.offer(message("m0"))).isTrue();
        assertThat(firstHeld.await(5, TimeUnit.SECONDS)).isTrue();
        for (int i = 1; i <= 4; i++) {
            assertThat(d.offer(message("m" + i)))
                    .as("m%d, with m0 in the listener's hands", i)
                    .isTrue();
        }
        assertThat(d.offer(message("m5"))).as("the bound: 4 held").isFalse();

        // m0 returns; the thread takes m1..m4 out in one batch and hands m1 to the listener
        release.countDown();
        assertThat(secondHeld.await(5, TimeUnit.SECONDS)).isTrue();

        assertThat(d.heldBytes()).as("m2..m4, taken out but not handed over").isEqualTo(6);
        assertThat(d.offer(message("m5"))).isTrue();
        assertThat(d.offer(message("m6"))).as("the bound counts the batch").isFalse();
    }

    @Test
    void anObserverThatThrows_isContained_andDeliveryGoesOn() {
        QueueMetrics.Observer throwing = new QueueMetrics.Observer() {
            @Override
            public void delivered(Duration latency) {
                throw new IllegalStateException("observer failure");
            }

            @Override
            public void handled(Duration time, boolean failed) {
                throw new OutOfMemoryError("observer failure");
            }

            @Override
            public void decodeFailed() {
                throw new IllegalStateException("observer failure");
            }
        };
        BroadcastDispatch<byte[], String> d = start(throwing, 100, (channel, m, h) -> got.add(m));

        d.offer(message("a"));
        d.offer(message("bad"));
        d.offer(message("b"));

        await().atMost(WAIT).until(() -> got.size() == 2);
        assertThat(got).containsExactly("a", "b");
        assertThat(d.counters().listenerFailures()).isZero();
        assertThat(d.counters().decodeFailures()).isEqualTo(1);
    }

    @Test
    void decodeFailures_andListenerFailures_areCountedApart_inTheSubscriptionAndItsBroadcaster() {
        BroadcastDispatch<byte[], String> d = start(QueueMetrics.Observer.NONE, 100, (channel, m, h) -> {
            got.add(channel + ":" + m);
            if (m.startsWith("fail")) {
                throw new AssertionError("listener failure");
            }
        });

        d.offer(message("fail-1"));
        d.offer(message("bad"));
        d.offer(Inbound.message("x".getBytes(StandardCharsets.UTF_8), "other", 1, System.nanoTime()));
        d.offer(Inbound.event("a callback", () -> {
            throw new IllegalStateException("callback failure");
        }));
        d.offer(message("fail-2"));
        d.offer(message("last"));

        await().atMost(WAIT).until(() -> got.contains("news:last"));
        assertThat(got).containsExactly("news:fail-1", "other:x", "news:fail-2", "news:last");
        assertThat(d.counters().listenerFailures()).isEqualTo(2);
        assertThat(d.counters().decodeFailures()).isEqualTo(1);
    }

    @Test
    void aListenerThatLeavesItsThreadInterrupted_getsTheNextMessageUninterrupted() {
        List<Boolean> interrupted = new CopyOnWriteArrayList<>();
        BroadcastDispatch<byte[], String> d = start(QueueMetrics.Observer.NONE, 100, (channel, m, h) -> {
            interrupted.add(Thread.currentThread().isInterrupted());
            Thread.currentThread().interrupt();
        });

        d.offer(message("a"));
        d.offer(message("b"));

        await().atMost(WAIT).until(() -> interrupted.size() == 2);
        assertThat(interrupted).containsExactly(false, false);
    }
}

package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.spi.QueueMetrics;
import io.queuekit.tck.ThrowingMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What is specific to the in-memory broadcaster: semantics values, failure counts, codec copies. */
@Timeout(10)
class InMemoryBroadcasterTest {
    private InMemoryBroadcaster<?> broadcaster;

    @AfterEach
    void close() {
        if (broadcaster != null) {
            broadcaster.close();
        }
    }

    @Test
    void semantics_areThoseOfRedisPubSub() {
        InMemoryBroadcaster<String> b = InMemoryBroadcaster.create("news");
        broadcaster = b;
        assertThat(b.semantics())
                .isEqualTo(new Semantics(
                        "in-memory",
                        Semantics.Guarantee.AT_MOST_ONCE,
                        Semantics.Ordering.PUBLISH_ORDER,
                        false,
                        true,
                        false));
    }

    @Test
    void throwingListeners_areCounted() {
        InMemoryBroadcaster<String> b = InMemoryBroadcaster.create("news");
        broadcaster = b;
        List<String> received = new CopyOnWriteArrayList<>();
        b.subscribe(m -> {
            received.add(m);
            throw new IllegalStateException("always fails");
        });

        b.publish("a");
        b.publish("b");

        await().atMost(Duration.ofSeconds(5)).until(() -> b.listenerFailures() == 2);
        assertThat(received).containsExactly("a", "b");
    }

    /** An observer must not throw; one that does is logged, and delivery goes on. */
    @Test
    void anObserverThatThrows_stopsNoDelivery() {
        QueueMetrics throwing = new ThrowingMetrics();
        InMemoryBroadcaster<String> b =
                InMemoryBroadcaster.<String>builder("news").metrics(throwing).build();
        broadcaster = b;
        List<String> received = new CopyOnWriteArrayList<>();
        Subscription s = b.subscribe(received::add);

        b.publish("a");
        b.publishAll(List.of("b", "c"));

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 3);
        assertThat(received).containsExactly("a", "b", "c");
        assertThat(s.isActive()).isTrue();
        assertThat(b.listenerFailures()).as("the listener never threw").isZero();
    }

    @Test
    void withACodec_eachSubscriberDecodesItsOwnCopy() {
        InMemoryBroadcaster<byte[]> b = InMemoryBroadcaster.<byte[]>builder("bytes")
                .codec(Codec.bytes())
                .build();
        broadcaster = b;
        List<byte[]> first = new CopyOnWriteArrayList<>();
        List<byte[]> second = new CopyOnWriteArrayList<>();
        b.subscribe(m -> {
            m[0] = 42;
            first.add(m);
        });
        b.subscribe(second::add);
        byte[] sent = {1, 2};

        b.publish(sent);
        sent[1] = 9;

        await().atMost(Duration.ofSeconds(5)).until(() -> first.size() == 1 && second.size() == 1);
        assertThat(first.get(0)).containsExactly(42, 2);
        assertThat(second.get(0)).containsExactly(1, 2);
    }

    @Test
    void subscriptionThreads_areNumberedPerChannel() {
        InMemoryBroadcaster<String> b = InMemoryBroadcaster.create("news");
        broadcaster = b;
        List<String> names = new CopyOnWriteArrayList<>();
        b.subscribe(m -> names.add(Thread.currentThread().getName()));
        b.subscribe(m -> names.add(Thread.currentThread().getName()));

        b.publish("x");

        await().atMost(Duration.ofSeconds(5)).until(() -> names.size() == 2);
        assertThat(names).containsExactlyInAnyOrder("queuekit-news-subscriber-1", "queuekit-news-subscriber-2");
    }

    @Test
    void aListenerMayCloseItsOwnSubscription() {
        InMemoryBroadcaster<String> b = InMemoryBroadcaster.create("news");
        broadcaster = b;
        AtomicReference<Subscription> self = new AtomicReference<>();
        List<String> received = new CopyOnWriteArrayList<>();
        self.set(b.subscribe(m -> {
            received.add(m);
            self.get().close();
        }));

        b.publish("first");
        await().atMost(Duration.ofSeconds(5)).until(() -> !self.get().isActive());

        assertThat(b.publish("second")).isZero();
        assertThat(received).containsExactly("first");
    }

    @Test
    void slowListener_queueHoldsAtMostItsCapacity_andPublishCountsOnlyTheSubscriptionsThatGotIt() throws Exception {
        InMemoryBroadcaster<String> b =
                InMemoryBroadcaster.<String>builder("news").inboxCapacity(10).build();
        broadcaster = b;
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> slow = new CopyOnWriteArrayList<>();
        b.subscribe(m -> {
            slow.add(m);
            holding.countDown();
            release.await(5, TimeUnit.SECONDS);
        });
        assertThat(b.publish("m0")).isEqualTo(1);
        assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();

        List<Long> reached = new ArrayList<>();
        for (int i = 1; i <= 15; i++) {
            reached.add(b.publish("m" + i));
        }
        release.countDown();

        assertThat(reached.subList(0, 10)).containsOnly(1L);
        assertThat(reached.subList(10, 15)).containsOnly(0L);
        assertThat(b.droppedMessages()).isEqualTo(5);
        await().atMost(Duration.ofSeconds(5)).until(() -> slow.size() == 11);
        assertThat(slow)
                .containsExactlyElementsOf(
                        IntStream.rangeClosed(0, 10).mapToObj(i -> "m" + i).toList());
        assertThat(b.publish("after catching up")).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> slow.contains("after catching up"));
    }

    @Test
    void byDefault_aSubscriptionsQueueIsBounded() throws Exception {
        int capacity = 100_000; // InMemoryBroadcaster.DEFAULT_INBOX_CAPACITY
        InMemoryBroadcaster<String> b = InMemoryBroadcaster.create("news");
        broadcaster = b;
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        b.subscribe(m -> {
            holding.countDown();
            release.await(5, TimeUnit.SECONDS);
        });
        b.publish("held");
        assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();

        long reached = 0;
        for (int i = 0; i < capacity + 100; i++) {
            reached += b.publish("m" + i);
        }
        release.countDown();

        assertThat(reached).as("messages queued behind the held one").isEqualTo(capacity);
    }

    @Test
    void inboxCapacity_isValidated() {
        assertThatThrownBy(() -> InMemoryBroadcaster.builder("news").inboxCapacity(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("inboxCapacity must be 1 to 16777216: 0");
    }
}

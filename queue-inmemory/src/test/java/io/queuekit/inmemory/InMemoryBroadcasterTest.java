package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
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
        assertThat(b.semantics()).isEqualTo(new Semantics("in-memory", Semantics.Guarantee.AT_MOST_ONCE,
                Semantics.Ordering.PUBLISH_ORDER, false, true, false));
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

    @Test
    void withACodec_eachSubscriberDecodesItsOwnCopy() {
        InMemoryBroadcaster<byte[]> b = InMemoryBroadcaster.<byte[]>builder("bytes").codec(Codec.bytes()).build();
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
}

package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.messages;
import static io.queuekit.tck.Tck.record;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.Broadcaster;
import io.queuekit.QueueClosedException;
import io.queuekit.Subscription;
import io.queuekit.tck.Tck.Recorder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.Broadcaster#close()}: it ends every subscription, drops what
 * it has not delivered, and is final and idempotent.
 */
interface BroadcastClosingContract extends BroadcasterContract {

    @Test
    default void close_endsEverySubscription_dropsWhatItHasNotDelivered_andLaterCallsThrow() throws Exception {
        Broadcaster<String> b = newBroadcaster();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> busy = new CopyOnWriteArrayList<>();
        List<String> busyThread = new CopyOnWriteArrayList<>();
        Subscription s1 = b.subscribe(m -> {
            busy.add(m);
            busyThread.add(Thread.currentThread().getName());
            holding.countDown();
            release.await(GENEROUS_MS, MILLISECONDS);
        });
        Recorder r2 = record(b);
        List<String> sent = messages(3);
        sent.forEach(b::publish);
        // the other subscription received all three, so they reached the busy one too (or are on their way)
        await().untilAsserted(() -> assertThat(r2.received).containsExactlyInAnyOrderElementsOf(sent));
        assertThat(holding.await(GENEROUS_MS, MILLISECONDS))
                .as("the busy listener holds its first message")
                .isTrue();

        Tck.Calls calls = new Tck.Calls();
        try {
            Call<Void> closing = calls.start("close", () -> {
                b.close();
                return null;
            });
            await().until(() -> !s1.isActive());
            release.countDown();
            closing.get();
        } finally {
            release.countDown();
            calls.stopAll();
        }

        assertThat(s1.isActive()).isFalse();
        assertThat(r2.subscription.isActive()).isFalse();
        await().until(() -> !Tck.threadAlive(busyThread.get(0)));
        assertThat(busy)
                .as("what the busy subscription's listener was handed: nothing after close")
                .hasSize(1)
                .isSubsetOf(sent);
        assertThatThrownBy(() -> b.publish("x")).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> b.subscribe(m -> {})).isInstanceOf(QueueClosedException.class);
        assertThat(r2.received).containsExactlyInAnyOrderElementsOf(sent);
        assumeTrue(Tck.ordersAll(b), "no order promised: " + b.semantics());
        assertThat(busy).containsExactly("m0");
        assertThat(r2.received).containsExactlyElementsOf(sent);
    }

    @Test
    default void close_isIdempotent() {
        Broadcaster<String> b = newBroadcaster();
        Recorder r = record(b);
        b.close();
        b.close();
        r.subscription.close();
        assertThat(r.subscription.isActive()).isFalse();
    }
}

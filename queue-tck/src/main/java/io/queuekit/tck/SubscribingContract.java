package io.queuekit.tck;

import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.record;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Broadcaster;
import io.queuekit.Subscription;
import io.queuekit.tck.Tck.Recorder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.Broadcaster#subscribe}: delivery starts before it returns,
 * and closing the subscription stops it, and its thread, and no other.
 */
interface SubscribingContract extends BroadcasterContract {

    @Test
    default void subscribe_returnsOnceActive_soAMessagePublishedRightAfterArrives() {
        Broadcaster<String> b = newBroadcaster();
        for (int i = 0; i < 5; i++) {
            Recorder r = record(b);
            assertThat(r.subscription.isActive()).isTrue();
            String m = "right after subscription " + i;
            b.publish(m);
            await().untilAsserted(() -> assertThat(r.received).contains(m));
        }
    }

    @Test
    default void closingASubscription_stopsItsDelivery_andNotTheOthers() {
        Broadcaster<String> b = newBroadcaster();
        Recorder closed = record(b);
        Recorder open = record(b);
        b.publish("before");
        await().untilAsserted(() -> assertThat(closed.received).containsExactly("before"));

        closed.subscription.close();

        assertThat(closed.subscription.isActive()).isFalse();
        assertThat(open.subscription.isActive()).isTrue();
        b.publish("after");
        await().untilAsserted(() -> assertThat(open.received).containsExactly("before", "after"));
        assertThat(closed.received).containsExactly("before");
        closed.subscription.close();
    }

    @Test
    default void closingASubscription_endsItsThread() {
        Broadcaster<String> b = newBroadcaster();
        List<String> threads = new CopyOnWriteArrayList<>();
        Subscription s = b.subscribe(m -> threads.add(Thread.currentThread().getName()));
        b.publish("x");
        await().until(() -> !threads.isEmpty());

        s.close();

        await().until(() -> !Tck.threadAlive(threads.get(0)));
    }
}

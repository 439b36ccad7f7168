package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.assertEachReceivedAll;
import static io.queuekit.tck.Tck.assumeFanOut;
import static io.queuekit.tck.Tck.assumeRetained;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.messages;
import static io.queuekit.tck.Tck.record;
import static io.queuekit.tck.Tck.takeAndAck;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.Broadcaster;
import io.queuekit.ConsumerGroup;
import io.queuekit.Topic;
import io.queuekit.tck.Tck.Recorder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.Broadcaster#publish}: a message reaches the subscribers
 * present, as {@link io.queuekit.Broadcaster#semantics()} promises (every one or one of them, kept
 * or not for those who come later), each at its own pace on its own named thread.
 */
interface PublishingContract extends BroadcasterContract {

    @Test
    default void publish_reachesEverySubscriber_inPublishOrder() {
        Broadcaster<String> b = newBroadcaster();
        assumeFanOut(b, true);
        List<Recorder> subscribers = List.of(record(b), record(b), record(b));
        List<String> sent = messages(100);

        sent.forEach(b::publish);

        assertEachReceivedAll(b, subscribers, sent);
    }

    @Test
    default void publish_withoutFanOut_reachesOneSubscriberPerMessage() {
        Broadcaster<String> b = newBroadcaster();
        assumeFanOut(b, false);
        List<Recorder> subscribers = List.of(record(b), record(b), record(b));
        List<String> sent = messages(100);

        sent.forEach(b::publish);

        await().until(() ->
                subscribers.stream().mapToInt(r -> r.received.size()).sum() >= sent.size());
        List<String> all = new ArrayList<>();
        subscribers.forEach(r -> all.addAll(r.received));
        assertThat(all).as("each message to one subscriber").containsExactlyInAnyOrderElementsOf(sent);
    }

    @Test
    default void publish_returnsTheNumberOfSubscribers() {
        Broadcaster<String> b = newBroadcaster();
        assertThat(b.publish("to no one")).isZero();
        Recorder one = record(b);
        assertThat(b.publish("to one")).isEqualTo(1);
        record(b);
        record(b);
        assertThat(b.publish("to three")).isEqualTo(3);
        await().untilAsserted(() -> assertThat(one.received).contains("to three"));
    }

    @Test
    default void publish_withNoSubscriber_isDropped_unlessRetained() {
        Broadcaster<String> b = newBroadcaster();
        assumeRetained(b, false);
        long reached = b.publish("while no one listens");
        Recorder late = record(b);

        b.publish("after subscribing");

        await().untilAsserted(() -> assertThat(late.received).contains("after subscribing"));
        assertThat(reached).isZero();
        assertThat(late.received).containsExactly("after subscribing");
    }

    @Test
    default void publish_withNoSubscriber_isKept_ifRetained() throws Exception {
        Broadcaster<String> b = newBroadcaster();
        assumeRetained(b, true);
        ConsumerGroup<String> group = retainingGroup(b, "late");
        b.publish("while no one listens");

        b.publish("after");

        List<String> got = takeAndAck(group, 2);
        assertThat(got).containsExactlyInAnyOrder("while no one listens", "after");
        assumeTrue(Tck.ordersAll(b), "no order promised: " + b.semantics());
        assertThat(got).containsExactly("while no one listens", "after");
    }

    @Test
    default void lateSubscriber_missesEarlierMessages() {
        Broadcaster<String> b = newBroadcaster();
        assumeRetained(b, false);

        assertThat(lateSubscriberAfterOne(b).received).containsExactly("two");
    }

    @Test
    default void lateSubscriber_receivesEarlierMessages_ifRetained() throws Exception {
        Broadcaster<String> b = newBroadcaster();
        assumeRetained(b, true);
        ConsumerGroup<String> late = retainingGroup(b, "late");
        Recorder early = record(b);
        b.publish("one");
        await().untilAsserted(() -> assertThat(early.received).containsExactly("one"));
        Recorder lateConsumer = new Recorder();
        closeLater(late.consume(d -> lateConsumer.received.add(d.payload())));

        b.publish("two");

        await().untilAsserted(() -> assertThat(lateConsumer.received).containsExactlyInAnyOrder("one", "two"));
        assumeTrue(Tck.ordersAll(b), "no order promised: " + b.semantics());
        assertThat(lateConsumer.received).containsExactly("one", "two");
    }

    /**
     * A group of {@code b} that exists before anything is published and has no consumer yet: a
     * broadcaster that keeps messages while no one listens keeps them for its groups, so it is a
     * {@link Topic}.
     */
    private ConsumerGroup<String> retainingGroup(Broadcaster<String> b, String name) {
        assertThat(b)
                .as("a broadcaster that keeps messages keeps them for groups: a Topic")
                .isInstanceOf(Topic.class);
        return closeLater(((Topic<String>) b).group(name));
    }

    /**
     * Publishes "one" to an early subscriber, then subscribes a late one and publishes "two";
     * returns the late one once both have "two".
     */
    private Recorder lateSubscriberAfterOne(Broadcaster<String> b) {
        Recorder early = record(b);
        b.publish("one");
        await().untilAsserted(() -> assertThat(early.received).containsExactly("one"));
        Recorder late = record(b);

        b.publish("two");

        await().untilAsserted(() -> {
            assertThat(early.received).containsExactly("one", "two");
            assertThat(late.received).contains("two");
        });
        return late;
    }

    @Test
    default void slowSubscriber_doesNotHoldUpTheOthers() throws Exception {
        Broadcaster<String> b = newBroadcaster();
        CountDownLatch release = new CountDownLatch(1);
        List<String> slow = new CopyOnWriteArrayList<>();
        b.subscribe(m -> {
            slow.add(m);
            release.await(GENEROUS_MS, MILLISECONDS);
        });
        Recorder fast = record(b);
        List<String> sent = messages(10);

        sent.forEach(b::publish);

        try {
            await().untilAsserted(() -> assertThat(fast.received).containsExactlyInAnyOrderElementsOf(sent));
            // the slow listener's thread may not have been handed its first yet, but must get no further
            await().untilAsserted(() -> assertThat(slow).hasSize(1));
        } finally {
            release.countDown();
        }
        await().untilAsserted(() -> assertThat(slow).containsExactlyInAnyOrderElementsOf(sent));
        assumeTrue(Tck.ordersAll(b), "no order promised: " + b.semantics());
        assertThat(fast.received).containsExactlyElementsOf(sent);
        assertThat(slow).containsExactlyElementsOf(sent);
    }

    @Test
    default void listeners_runOnTheSubscriptionsOwnNamedThread() {
        Broadcaster<String> b = newBroadcaster();
        List<String> threads = new CopyOnWriteArrayList<>();
        b.subscribe(m -> threads.add(Thread.currentThread().getName()));
        b.subscribe(m -> threads.add(Thread.currentThread().getName()));

        b.publish("x");

        await().until(() -> threads.size() == 2);
        assertThat(threads)
                .doesNotHaveDuplicates()
                .allSatisfy(n -> assertThat(n).startsWith("queuekit-" + b.name() + "-subscriber-"));
    }
}

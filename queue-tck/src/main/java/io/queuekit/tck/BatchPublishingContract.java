package io.queuekit.tck;

import static io.queuekit.tck.Tck.assertEachReceivedAll;
import static io.queuekit.tck.Tck.assumeFanOut;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.messages;
import static io.queuekit.tck.Tck.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.Broadcaster;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.tck.Tck.Recorder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.Broadcaster#publishAll}: a batch is published in order,
 * counting the subscribers of each message, and is checked in full before any of it goes out.
 */
interface BatchPublishingContract extends BroadcasterContract {

    @Test
    default void publishAll_reachesEverySubscriber_inOrder_andCountsTheSubscribersOfEachMessage() {
        Broadcaster<String> b = newBroadcaster();
        assumeFanOut(b, true);
        assertThat(b.publishAll(List.of("to no one", "to no one either"))).containsExactly(0, 0);
        List<Recorder> subscribers = List.of(record(b), record(b), record(b));
        List<String> sent = messages(100);

        long[] received = b.publishAll(sent);

        assertThat(received).hasSize(sent.size()).containsOnly(3);
        assertEachReceivedAll(b, subscribers, sent);
    }

    @Test
    default void publishAll_withoutFanOut_reachesOneSubscriberPerMessage_andCountsTheSubscribers() {
        Broadcaster<String> b = newBroadcaster();
        assumeFanOut(b, false);
        assertThat(b.publishAll(List.of("to no one", "to no one either"))).containsExactly(0, 0);
        List<Recorder> subscribers = List.of(record(b), record(b), record(b));
        List<String> sent = messages(100);

        long[] received = b.publishAll(sent);

        assertThat(received).hasSize(sent.size()).containsOnly(3);
        await().until(() ->
                subscribers.stream().mapToInt(r -> r.received.size()).sum() >= sent.size());
        List<String> all = new ArrayList<>();
        subscribers.forEach(r -> all.addAll(r.received));
        assertThat(all).as("each message to one subscriber").containsExactlyInAnyOrderElementsOf(sent);
    }

    @Test
    default void publishAll_andPublish_keepOneOrder() {
        Broadcaster<String> b = newBroadcaster();
        Recorder r = record(b);
        assumeTrue(
                b.semantics().ordering() == Semantics.Ordering.PUBLISH_ORDER
                        || b.semantics().ordering() == Semantics.Ordering.FIFO,
                "no order promised");

        b.publish("one");
        b.publishAll(List.of("two", "three"));
        b.publish("four");
        b.publishAll(List.of("five"));

        await().untilAsserted(() -> assertThat(r.received).containsExactly("one", "two", "three", "four", "five"));
    }

    @Test
    default void publishAll_withANullElement_throwsNullPointerException_andPublishesNothing() {
        Broadcaster<String> b = newBroadcaster();
        Recorder r = record(b);

        assertThatThrownBy(() -> b.publishAll(Arrays.asList("a", null, "c"))).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> b.publishAll(null)).isInstanceOf(NullPointerException.class);

        b.publish("after");
        await().untilAsserted(() -> assertThat(r.received).contains("after"));
        assertThat(r.received).as("what the refused batches published").containsExactly("after");
    }

    @Test
    default void publishAll_ofAnEmptyBatch_returnsNoCounts_andPublishesNothing() {
        Broadcaster<String> b = newBroadcaster();
        Recorder r = record(b);

        assertThat(b.publishAll(List.of())).isEmpty();

        b.publish("after");
        await().untilAsserted(() -> assertThat(r.received).contains("after"));
        assertThat(r.received).containsExactly("after");
    }

    @Test
    default void publishAll_afterClose_throwsQueueClosedException_evenForAnEmptyBatch() {
        Broadcaster<String> b = newBroadcaster();
        b.close();

        assertThatThrownBy(() -> b.publishAll(List.of("x"))).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> b.publishAll(List.of())).isInstanceOf(QueueClosedException.class);
    }
}

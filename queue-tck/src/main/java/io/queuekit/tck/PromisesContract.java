package io.queuekit.tck;

import static io.queuekit.tck.Tck.assumeOrdered;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.quickOptions;
import static io.queuekit.tck.Tck.takeAndAck;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.MessageQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The promises {@link io.queuekit.MessageQueue#semantics()} states, each asserted the way it is
 * made: an order, retention while no one consumes, one consumer or every consumer per message. A
 * test of the other way reports as skipped.
 */
interface PromisesContract extends QueueContract {

    @Test
    default void ordering_messagesAreHandedOutAsPromised() throws Exception {
        MessageQueue<String> q = newQueue();
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            if (i % 10 == 0) {
                List<String> batch = List.of("m" + i + "a", "m" + i + "b", "m" + i + "c");
                q.sendAll(batch);
                sent.addAll(batch);
            } else {
                q.send("m" + i);
                sent.add("m" + i);
            }
        }

        List<String> got = takeAndAck(q, sent.size());

        assertThat(got).as("each message handed out once").containsExactlyInAnyOrderElementsOf(sent);
        assumeOrdered(q);
        assertThat(got).containsExactlyElementsOf(sent);
    }

    @Test
    default void retention_messagesSentWhileNoOneConsumes_areKept() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeTrue(q.semantics().retainedWithoutConsumers(), "kept while no one consumes: no: " + q.semantics());
        q.send("sent before any consumer");

        assertThat(next(q).payload()).isEqualTo("sent before any consumer");
    }

    @Test
    default void retention_messagesSentWhileNoOneConsumes_areDropped() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeTrue(!q.semantics().retainedWithoutConsumers(), "kept while no one consumes: yes: " + q.semantics());
        q.send("sent before any consumer");

        assertNothingDelivered(q);
    }

    @Test
    default void fanOut_eachMessageReachesEveryConsumer() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeTrue(q.semantics().fanOut(), "no fan-out: " + q.semantics());
        List<String> first = new CopyOnWriteArrayList<>();
        List<String> second = new CopyOnWriteArrayList<>();
        List<String> sent = twoConsumersAndTwentyMessages(q, first, second);

        await().untilAsserted(() -> {
            assertThat(first).containsExactlyInAnyOrderElementsOf(sent);
            assertThat(second).containsExactlyInAnyOrderElementsOf(sent);
        });
    }

    @Test
    default void noFanOut_eachMessageReachesExactlyOneConsumer() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeTrue(!q.semantics().fanOut(), "fan-out: " + q.semantics());
        List<String> first = new CopyOnWriteArrayList<>();
        List<String> second = new CopyOnWriteArrayList<>();
        List<String> sent = twoConsumersAndTwentyMessages(q, first, second);

        await().until(() -> first.size() + second.size() >= sent.size());
        assertThat(q.poll(quietPeriod().toMillis(), MILLISECONDS)).isNull();
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        assertThat(all).as("each message to exactly one consumer").containsExactlyInAnyOrderElementsOf(sent);
    }

    /** Starts two consumers recording into {@code first} and {@code second}, then sends twenty messages. */
    private List<String> twoConsumersAndTwentyMessages(
            MessageQueue<String> q, List<String> first, List<String> second) {
        closeLater(q.consume(d -> first.add(d.payload()), quickOptions(1, Duration.ZERO)));
        closeLater(q.consume(d -> second.add(d.payload()), quickOptions(1, Duration.ZERO)));
        List<String> sent = IntStream.range(0, 20).mapToObj(i -> "m" + i).collect(Collectors.toList());
        q.sendAll(sent);
        return sent;
    }
}

package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.Broadcaster;
import io.queuekit.Subscription;
import io.queuekit.tck.BroadcasterContractTest.IdleSetup;
import io.queuekit.tck.Tck.Recorder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The contract of a subscription's endurance: it outlives its listener's failures (without handing
 * the failed message again, whatever the guarantee) and its own idleness.
 */
interface SubscriptionResilienceContract extends BroadcasterContract {

    /**
     * A throw is the listener's answer, on at-least-once transports too (a {@link io.queuekit.Topic}'s
     * subscription acks after its listener returns or throws): {@link io.queuekit.MessageListener}
     * promises that the subscription carries on with the next message, and handing the failed one
     * again would break {@link #listenerThrowingAnError_orLeavingItsThreadInterrupted_keepsReceiving}.
     */
    @Test
    default void throwingListener_keepsReceiving_andTheFailedMessageIsNotRedelivered() {
        Broadcaster<String> b = newBroadcaster();
        List<String> received = subscribeFailingOnBad(b);

        publishBadAndGood(b);

        await().untilAsserted(
                        () -> assertThat(received).containsExactlyInAnyOrder("bad-1", "good-1", "bad-2", "good-2"));
        assumeTrue(Tck.ordersAll(b), "no order promised: " + b.semantics());
        assertThat(received).containsExactly("bad-1", "good-1", "bad-2", "good-2");
    }

    /** Subscribes a listener that records what it receives and throws on messages starting "bad". */
    private static List<String> subscribeFailingOnBad(Broadcaster<String> b) {
        List<String> received = new CopyOnWriteArrayList<>();
        b.subscribe(m -> {
            received.add(m);
            if (m.startsWith("bad")) {
                throw new IllegalStateException("listener fails on " + m);
            }
        });
        return received;
    }

    private static void publishBadAndGood(Broadcaster<String> b) {
        b.publish("bad-1");
        b.publish("good-1");
        b.publish("bad-2");
        b.publish("good-2");
    }

    @Test
    default void listenerThrowingAnError_orLeavingItsThreadInterrupted_keepsReceiving() {
        Broadcaster<String> b = newBroadcaster();
        List<String> received = new CopyOnWriteArrayList<>();
        Subscription s = b.subscribe(m -> {
            received.add(m);
            switch (m) {
                case "error" -> throw new StackOverflowError("thrown by the listener on purpose");
                case "linkage" -> throw new LinkageError("thrown by the listener on purpose");
                case "interrupt-flag" -> Thread.currentThread().interrupt();
                case "interrupted" -> throw new InterruptedException("thrown by the listener on purpose");
                default -> {}
            }
        });
        List<String> sent = List.of(
                "error",
                "after-error",
                "linkage",
                "after-linkage",
                "interrupt-flag",
                "after-flag",
                "interrupted",
                "after-interrupted");

        for (String m : sent) {
            // one at a time: each publish counts a subscription that survived the one before
            assertThat(b.publish(m)).as("subscriptions that \"%s\" reached", m).isEqualTo(1);
            await().untilAsserted(() -> assertThat(received).contains(m));
        }

        assertThat(received).containsExactlyElementsOf(sent);
        assertThat(s.isActive()).isTrue();
    }

    @Test
    default void listenerLeavingItsThreadInterrupted_doesNotInterruptTheNextCall() {
        Broadcaster<String> b = newBroadcaster();
        List<String> interruptedOnEntry = new CopyOnWriteArrayList<>();
        List<String> received = new CopyOnWriteArrayList<>();
        b.subscribe(m -> {
            if (Thread.currentThread().isInterrupted()) {
                interruptedOnEntry.add(m);
            }
            received.add(m);
            if (m.startsWith("flag")) {
                Thread.currentThread().interrupt();
            }
        });
        List<String> sent = List.of("flag-1", "next-1", "flag-2", "next-2", "flag-3", "next-3");

        sent.forEach(b::publish);

        await().untilAsserted(() -> assertThat(received).containsExactlyInAnyOrderElementsOf(sent));
        assertThat(interruptedOnEntry)
                .as("listener calls that began with the thread interrupted")
                .isEmpty();
        assumeTrue(Tck.ordersAll(b), "no order promised: " + b.semantics());
        assertThat(received).containsExactlyElementsOf(sent);
    }

    @Test
    default void healthyIdleSubscription_reportsNoGap_overLongerThanEveryClientTimeout() {
        IdleSetup setup = idleSetup(uniqueName());
        Broadcaster<String> b = setup.broadcaster();
        Recorder r = record(b);
        b.publish("before");
        await().untilAsserted(() -> assertThat(r.received).containsExactly("before"));
        Duration idle = setup.longestClientTimeout().multipliedBy(3);

        Awaitility.await("no gap while idle for " + idle)
                .pollInterval(Duration.ofMillis(10))
                .failFast("a gap was reported", () -> setup.gapsReported().getAsLong() > 0)
                .during(idle)
                .atMost(idle.plus(GENEROUS))
                .until(() -> setup.gapsReported().getAsLong() == 0 && r.subscription.isActive());

        b.publish("after");
        await().untilAsserted(() -> assertThat(r.received).containsExactly("before", "after"));
        assertThat(setup.gapsReported().getAsLong()).as("gaps reported").isZero();
    }
}

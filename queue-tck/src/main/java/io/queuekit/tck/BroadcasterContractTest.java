package io.queuekit.tck;

import static io.queuekit.tck.Tck.await;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Broadcaster;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of {@link Broadcaster}: every broadcast transport passes it by extending this class
 * with a few lines.
 *
 * <pre>{@code
 * class RedisBroadcasterContractTest extends BroadcasterContractTest {
 *     @Override protected Broadcaster<String> createBroadcaster(String channel) {
 *         return RedisBroadcaster.builder(client, channel, Codec.utf8()).build();
 *     }
 * }
 * }</pre>
 *
 * <p>Each test uses its own channel and closes its broadcasters afterwards. Messages are awaited
 * with a bound, and absences are checked after a message published later has arrived, so the suite
 * takes about as long on a server as in memory; the one exception is the idle test, which must
 * let time pass (three times the client's longest timeout, see {@link #idleSetup(String)}).
 * Promises made by {@link Broadcaster#semantics()} are asserted both ways: a broadcaster that
 * does not retain is shown to drop a message published while no one listens, a fan-out
 * broadcaster is shown to deliver every message to every subscriber.
 *
 * <p>{@link Broadcaster#publish} must count every subscription (one per subscribed connection on
 * Redis): with three subscriptions in this process it returns 3.
 */
@Timeout(value = 60, unit = SECONDS)
public abstract class BroadcasterContractTest {

    /** A new broadcaster on {@code channel} (unique to one test), carrying strings. */
    protected abstract Broadcaster<String> createBroadcaster(String channel);

    private final List<AutoCloseable> created = new CopyOnWriteArrayList<>();
    private TestInfo testInfo;

    @BeforeEach
    void rememberTest(TestInfo info) {
        this.testInfo = info;
    }

    @AfterEach
    void closeBroadcasters() throws Exception {
        for (AutoCloseable c : created) {
            c.close();
        }
        created.clear();
    }

    Broadcaster<String> newBroadcaster() {
        Broadcaster<String> b = createBroadcaster(Tck.uniqueName(testInfo));
        created.add(b);
        return b;
    }

    /** Subscribes a listener that records what it receives. */
    static Recorder record(Broadcaster<String> b) {
        Recorder r = new Recorder();
        r.subscription = b.subscribe(r.received::add);
        return r;
    }

    static final class Recorder {
        final List<String> received = new CopyOnWriteArrayList<>();
        Subscription subscription;
    }

    static List<String> messages(int n) {
        return IntStream.range(0, n).mapToObj(i -> "m" + i).collect(Collectors.toList());
    }

    /**
     * For {@code healthyIdleSubscription_reportsNoGap_overLongerThanEveryClientTimeout}: a new
     * broadcaster on {@code channel} whose connections use the shortest timeouts its client
     * allows (for Redis: a client whose socket, blocking-socket and connection timeouts are all
     * {@link IdleSetup#longestClientTimeout()}), with a way to read how many gaps its
     * subscriptions have reported. The default skips that test: a transport with nothing to
     * disconnect has no notion of a gap.
     */
    protected IdleSetup idleSetup(String channel) {
        return Assumptions.abort("this transport reports no gaps in what it delivers: nothing to disconnect");
    }

    /**
     * A broadcaster whose client times out after at most {@code longestClientTimeout}, and the
     * number of gaps (lost and re-established subscriptions) it has reported so far.
     */
    public record IdleSetup(Broadcaster<String> broadcaster, Duration longestClientTimeout, LongSupplier gapsReported) {
        public IdleSetup {
            Objects.requireNonNull(broadcaster, "broadcaster");
            Objects.requireNonNull(gapsReported, "gapsReported");
            if (longestClientTimeout == null || longestClientTimeout.isNegative() || longestClientTimeout.isZero()) {
                throw new IllegalArgumentException("longestClientTimeout must be positive: " + longestClientTimeout);
            }
        }
    }

    @Nested
    @DisplayName("publish reaches the subscribers present, as semantics() promises")
    class Publishing {

        @Test
        void publish_reachesEverySubscriber_inPublishOrder() {
            Broadcaster<String> b = newBroadcaster();
            List<Recorder> subscribers = List.of(record(b), record(b), record(b));
            List<String> sent = messages(100);

            sent.forEach(b::publish);

            Semantics s = b.semantics();
            if (s.fanOut()) {
                await().untilAsserted(() -> {
                    for (Recorder r : subscribers) {
                        if (s.ordering() == Semantics.Ordering.PUBLISH_ORDER || s.ordering() == Semantics.Ordering.FIFO) {
                            assertThat(r.received).containsExactlyElementsOf(sent);
                        } else {
                            assertThat(r.received).containsExactlyInAnyOrderElementsOf(sent);
                        }
                    }
                });
            } else {
                await().until(() -> subscribers.stream().mapToInt(r -> r.received.size()).sum() >= sent.size());
                List<String> all = new ArrayList<>();
                subscribers.forEach(r -> all.addAll(r.received));
                assertThat(all).as("each message to one subscriber").containsExactlyInAnyOrderElementsOf(sent);
            }
        }

        @Test
        void publish_returnsTheNumberOfSubscribers() {
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
        void publish_withNoSubscriber_isDropped_unlessRetained() {
            Broadcaster<String> b = newBroadcaster();
            long reached = b.publish("while no one listens");
            Recorder late = record(b);

            b.publish("after subscribing");

            await().untilAsserted(() -> assertThat(late.received).contains("after subscribing"));
            if (b.semantics().retainedWithoutConsumers()) {
                assertThat(late.received).containsExactly("while no one listens", "after subscribing");
            } else {
                assertThat(reached).isZero();
                assertThat(late.received).containsExactly("after subscribing");
            }
        }

        @Test
        void lateSubscriber_missesEarlierMessages() {
            Broadcaster<String> b = newBroadcaster();
            Recorder early = record(b);
            b.publish("one");
            await().untilAsserted(() -> assertThat(early.received).containsExactly("one"));
            Recorder late = record(b);

            b.publish("two");

            await().untilAsserted(() -> {
                assertThat(early.received).containsExactly("one", "two");
                assertThat(late.received).contains("two");
            });
            if (b.semantics().retainedWithoutConsumers()) {
                assertThat(late.received).contains("one");
            } else {
                assertThat(late.received).containsExactly("two");
            }
        }

        @Test
        void throwingListener_keepsReceiving_andTheFailedMessageIsNotRedelivered_ifAtMostOnce() {
            Broadcaster<String> b = newBroadcaster();
            List<String> received = new CopyOnWriteArrayList<>();
            b.subscribe(m -> {
                received.add(m);
                if (m.startsWith("bad")) {
                    throw new IllegalStateException("listener fails on " + m);
                }
            });

            b.publish("bad-1");
            b.publish("good-1");
            b.publish("bad-2");
            b.publish("good-2");

            await().untilAsserted(() -> assertThat(received).contains("good-2"));
            if (b.semantics().guarantee() == Semantics.Guarantee.AT_MOST_ONCE) {
                assertThat(received).containsExactly("bad-1", "good-1", "bad-2", "good-2");
            } else {
                assertThat(received).filteredOn("bad-1"::equals).as("redelivered after failing").hasSizeGreaterThan(1);
            }
        }

        @Test
        void slowSubscriber_doesNotHoldUpTheOthers() throws Exception {
            Broadcaster<String> b = newBroadcaster();
            CountDownLatch release = new CountDownLatch(1);
            List<String> slow = new CopyOnWriteArrayList<>();
            b.subscribe(m -> {
                slow.add(m);
                release.await(Tck.GENEROUS_MS, MILLISECONDS);
            });
            Recorder fast = record(b);
            List<String> sent = messages(10);

            sent.forEach(b::publish);

            try {
                await().untilAsserted(() -> assertThat(fast.received).containsExactlyElementsOf(sent));
                assertThat(slow).containsExactly("m0");
            } finally {
                release.countDown();
            }
            await().untilAsserted(() -> assertThat(slow).containsExactlyElementsOf(sent));
        }

        @Test
        void listeners_runOnTheSubscriptionsOwnNamedThread() {
            Broadcaster<String> b = newBroadcaster();
            List<String> threads = new CopyOnWriteArrayList<>();
            b.subscribe(m -> threads.add(Thread.currentThread().getName()));
            b.subscribe(m -> threads.add(Thread.currentThread().getName()));

            b.publish("x");

            await().until(() -> threads.size() == 2);
            assertThat(threads).doesNotHaveDuplicates()
                    .allSatisfy(n -> assertThat(n).startsWith("queuekit-" + b.name() + "-subscriber-"));
        }

        @Test
        void publish_null_throwsNullPointerException() {
            Broadcaster<String> b = newBroadcaster();
            Recorder r = record(b);
            assertThatThrownBy(() -> b.publish(null)).isInstanceOf(NullPointerException.class);
            b.publish("after");
            await().untilAsserted(() -> assertThat(r.received).containsExactly("after"));
        }
    }

    @Nested
    @DisplayName("publishAll publishes a batch in order, checked in full before any of it goes out")
    class PublishingBatches {

        @Test
        void publishAll_reachesEverySubscriber_inOrder_andCountsTheSubscribersOfEachMessage() {
            Broadcaster<String> b = newBroadcaster();
            assertThat(b.publishAll(List.of("to no one", "to no one either"))).containsExactly(0, 0);
            List<Recorder> subscribers = List.of(record(b), record(b), record(b));
            List<String> sent = messages(100);

            long[] received = b.publishAll(sent);

            assertThat(received).hasSize(sent.size()).containsOnly(3);
            Semantics s = b.semantics();
            await().untilAsserted(() -> {
                if (s.fanOut()) {
                    for (Recorder r : subscribers) {
                        if (s.ordering() == Semantics.Ordering.PUBLISH_ORDER || s.ordering() == Semantics.Ordering.FIFO) {
                            assertThat(r.received).containsExactlyElementsOf(sent);
                        } else {
                            assertThat(r.received).containsExactlyInAnyOrderElementsOf(sent);
                        }
                    }
                } else {
                    List<String> all = new ArrayList<>();
                    subscribers.forEach(r -> all.addAll(r.received));
                    assertThat(all).as("each message to one subscriber").containsExactlyInAnyOrderElementsOf(sent);
                }
            });
        }

        @Test
        void publishAll_andPublish_keepOneOrder() {
            Broadcaster<String> b = newBroadcaster();
            Recorder r = record(b);
            Assumptions.assumeTrue(b.semantics().ordering() == Semantics.Ordering.PUBLISH_ORDER
                    || b.semantics().ordering() == Semantics.Ordering.FIFO, "no order promised");

            b.publish("one");
            b.publishAll(List.of("two", "three"));
            b.publish("four");
            b.publishAll(List.of("five"));

            await().untilAsserted(() -> assertThat(r.received).containsExactly("one", "two", "three", "four", "five"));
        }

        @Test
        void publishAll_withANullElement_throwsNullPointerException_andPublishesNothing() {
            Broadcaster<String> b = newBroadcaster();
            Recorder r = record(b);

            assertThatThrownBy(() -> b.publishAll(Arrays.asList("a", null, "c"))).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> b.publishAll(null)).isInstanceOf(NullPointerException.class);

            b.publish("after");
            await().untilAsserted(() -> assertThat(r.received).contains("after"));
            assertThat(r.received).as("what the refused batches published").containsExactly("after");
        }

        @Test
        void publishAll_ofAnEmptyBatch_returnsNoCounts_andPublishesNothing() {
            Broadcaster<String> b = newBroadcaster();
            Recorder r = record(b);

            assertThat(b.publishAll(List.of())).isEmpty();

            b.publish("after");
            await().untilAsserted(() -> assertThat(r.received).contains("after"));
            assertThat(r.received).containsExactly("after");
        }

        @Test
        void publishAll_afterClose_throwsQueueClosedException_evenForAnEmptyBatch() {
            Broadcaster<String> b = newBroadcaster();
            b.close();

            assertThatThrownBy(() -> b.publishAll(List.of("x"))).isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> b.publishAll(List.of())).isInstanceOf(QueueClosedException.class);
        }
    }

    @Nested
    @DisplayName("subscribe starts delivery, closing the subscription stops it")
    class Subscribing {

        @Test
        void subscribe_returnsOnceActive_soAMessagePublishedRightAfterArrives() {
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
        void closingASubscription_stopsItsDelivery_andNotTheOthers() {
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
        void closingASubscription_endsItsThread() {
            Broadcaster<String> b = newBroadcaster();
            List<String> threads = new CopyOnWriteArrayList<>();
            Subscription s = b.subscribe(m -> threads.add(Thread.currentThread().getName()));
            b.publish("x");
            await().until(() -> !threads.isEmpty());

            s.close();

            await().until(() -> !Tck.threadAlive(threads.get(0)));
        }

        @Test
        void subscribe_null_throwsNullPointerException() {
            Broadcaster<String> b = newBroadcaster();
            assertThatThrownBy(() -> b.subscribe(null)).isInstanceOf(NullPointerException.class);
            assertThat(b.publish("x")).isZero();
        }
    }

    @Nested
    @DisplayName("a subscription outlives its listener's failures and its own idleness")
    class Resilience {

        @Test
        void listenerThrowingAnError_orLeavingItsThreadInterrupted_keepsReceiving() {
            Broadcaster<String> b = newBroadcaster();
            List<String> received = new CopyOnWriteArrayList<>();
            Subscription s = b.subscribe(m -> {
                received.add(m);
                switch (m) {
                    case "error" -> throw new StackOverflowError("thrown by the listener on purpose");
                    case "linkage" -> throw new LinkageError("thrown by the listener on purpose");
                    case "interrupt-flag" -> Thread.currentThread().interrupt();
                    case "interrupted" -> throw new InterruptedException("thrown by the listener on purpose");
                    default -> { }
                }
            });
            List<String> sent = List.of("error", "after-error", "linkage", "after-linkage", "interrupt-flag",
                    "after-flag", "interrupted", "after-interrupted");

            for (String m : sent) {
                // one at a time: each publish counts a subscription that survived the one before
                assertThat(b.publish(m)).as("subscriptions that \"%s\" reached", m).isEqualTo(1);
                await().untilAsserted(() -> assertThat(received).contains(m));
            }

            assertThat(received).containsExactlyElementsOf(sent);
            assertThat(s.isActive()).isTrue();
        }

        @Test
        void listenerLeavingItsThreadInterrupted_doesNotInterruptTheNextCall() {
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

            await().untilAsserted(() -> assertThat(received).containsExactlyElementsOf(sent));
            assertThat(interruptedOnEntry).as("listener calls that began with the thread interrupted").isEmpty();
        }

        @Test
        void healthyIdleSubscription_reportsNoGap_overLongerThanEveryClientTimeout() {
            IdleSetup setup = idleSetup(Tck.uniqueName(testInfo));
            Broadcaster<String> b = setup.broadcaster();
            created.add(b);
            Recorder r = record(b);
            b.publish("before");
            await().untilAsserted(() -> assertThat(r.received).containsExactly("before"));
            Duration idle = setup.longestClientTimeout().multipliedBy(3);

            Awaitility.await("no gap while idle for " + idle)
                    .pollInterval(Duration.ofMillis(10))
                    .failFast("a gap was reported", () -> setup.gapsReported().getAsLong() > 0)
                    .during(idle)
                    .atMost(idle.plus(Tck.GENEROUS))
                    .until(() -> setup.gapsReported().getAsLong() == 0 && r.subscription.isActive());

            b.publish("after");
            await().untilAsserted(() -> assertThat(r.received).containsExactly("before", "after"));
            assertThat(setup.gapsReported().getAsLong()).as("gaps reported").isZero();
        }
    }

    @Nested
    @DisplayName("close() ends every subscription and is final")
    class Closing {

        @Test
        void close_endsEverySubscription_dropsWhatItHasNotDelivered_andLaterCallsThrow() throws Exception {
            Broadcaster<String> b = newBroadcaster();
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> busy = new CopyOnWriteArrayList<>();
            List<String> busyThread = new CopyOnWriteArrayList<>();
            Subscription s1 = b.subscribe(m -> {
                busy.add(m);
                busyThread.add(Thread.currentThread().getName());
                holding.countDown();
                release.await(Tck.GENEROUS_MS, MILLISECONDS);
            });
            Recorder r2 = record(b);
            List<String> sent = messages(3);
            sent.forEach(b::publish);
            // the other subscription received all three, so they reached the busy one too (or are on their way)
            await().untilAsserted(() -> assertThat(r2.received).containsExactlyElementsOf(sent));
            assertThat(holding.await(Tck.GENEROUS_MS, MILLISECONDS)).as("the busy listener holds m0").isTrue();

            Tck.Calls calls = new Tck.Calls();
            try {
                Tck.Call<Void> closing = calls.start("close", () -> {
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
            assertThat(busy).as("what the busy subscription's listener was handed: nothing after close")
                    .containsExactly("m0");
            assertThatThrownBy(() -> b.publish("x")).isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> b.subscribe(m -> { })).isInstanceOf(QueueClosedException.class);
            assertThat(r2.received).containsExactlyElementsOf(sent);
        }

        @Test
        void close_isIdempotent() {
            Broadcaster<String> b = newBroadcaster();
            Recorder r = record(b);
            b.close();
            b.close();
            r.subscription.close();
            assertThat(r.subscription.isActive()).isFalse();
        }
    }

    @Nested
    @DisplayName("semantics() describes a broadcast")
    class Promises {

        @Test
        void semantics_isConstant_andHasNoDelays() {
            Broadcaster<String> b = newBroadcaster();
            Semantics s = b.semantics();
            assertThat(s).isNotNull().isEqualTo(b.semantics());
            assertThat(s.transport()).isNotBlank();
            assertThat(s.delays()).as("a broadcaster cannot schedule").isFalse();
        }

        @Test
        void name_isTheChannelGiven() {
            String channel = Tck.uniqueName(testInfo);
            Broadcaster<String> b = createBroadcaster(channel);
            created.add(b);
            assertThat(b.name()).isEqualTo(channel);
        }
    }
}

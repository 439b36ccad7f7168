package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS;
import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.await;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetter;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import io.queuekit.SerializationException;
import io.queuekit.Subscription;
import io.queuekit.tck.Tck.Call;
import io.queuekit.tck.Tck.Calls;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of {@link MessageQueue}: every queue transport passes it by extending this class
 * with a few lines.
 *
 * <pre>{@code
 * class RedisListQueueContractTest extends MessageQueueContractTest {
 *     @Override protected MessageQueue<String> createQueue(String name, QueueConfig config) {
 *         return RedisListQueue.builder(client, name, Codec.utf8())
 *                 .visibilityTimeout(config.visibilityTimeout()).maxAttempts(config.maxAttempts())
 *                 .deadLetterRetention(config.deadLetterRetention()).build();
 *     }
 *     @Override protected TimeControl time() { return TimeControl.real(); }
 * }
 * }</pre>
 *
 * <p>Each test creates its own queues with a unique name (so tests never see each other's
 * messages, even on a shared server) and closes them afterwards. Promises made by
 * {@link MessageQueue#semantics()} are asserted both ways: an at-least-once queue is shown to
 * redeliver after the lease, an at-most-once queue is shown not to. A test of a promise only some
 * semantics make (an order, a lease) is skipped, by a JUnit assumption, on the others.
 *
 * <p><b>Time.</b> {@link #time()} is a virtual clock for in-memory transports (advancing is
 * instant) or {@link TimeControl#real()} for servers (advancing sleeps). On real time the tests
 * that wait out a lease cost about 1.25 times {@link #visibilityTimeout()} per lease; keep it short
 * (the default on real time is 1 s).
 */
@Timeout(value = 60, unit = SECONDS)
public abstract class MessageQueueContractTest {

    /**
     * A new queue named {@code name} (unique to one test) with exactly the settings in
     * {@code config}, holding strings. The suite closes it after the test.
     */
    protected abstract MessageQueue<String> createQueue(String name, QueueConfig config);

    /** The transport's time: {@link TimeControl#virtual} or {@link TimeControl#real()}. */
    protected abstract TimeControl time();

    /**
     * The visibility timeout the suite configures and waits out: 30 s on a virtual clock, 1 s on
     * real time. Several tests wait about 1.25 times this on real time.
     */
    protected Duration visibilityTimeout() {
        return time().isVirtual() ? Duration.ofSeconds(30) : Duration.ofSeconds(1);
    }

    /**
     * How long a test watches for something that must not happen (a redelivery, an early
     * delivery): 50 ms on a virtual clock, where nothing moves unless advanced, 300 ms on real
     * time.
     */
    protected Duration quietPeriod() {
        return time().isVirtual() ? Duration.ofMillis(50) : Duration.ofMillis(300);
    }

    /** How soon a blocked call must answer an interrupt (Redis transports notice within about 1 s). */
    static final Duration INTERRUPT_BOUND = Duration.ofSeconds(5);

    private final List<AutoCloseable> created = new CopyOnWriteArrayList<>();
    final Calls calls = new Calls();
    final RecordingMetrics metrics = new RecordingMetrics();
    private TestInfo testInfo;

    @BeforeEach
    void rememberTest(TestInfo info) {
        this.testInfo = info;
    }

    @AfterEach
    void closeQueuesAndStopCalls() throws Exception {
        for (AutoCloseable c : created) {
            c.close();
        }
        created.clear();
        calls.stopAll();
    }

    /**
     * Whether {@link #createQueue} stores payloads with {@code config.codec()}. A transport that
     * can also keep objects as they are (in memory) may run the suite once that way and return
     * false there: the tests of codec failures are then skipped.
     */
    protected boolean appliesCodec() {
        return true;
    }

    /** The settings most tests use: the visibility timeout, 5 attempts, 10,000 dead letters, UTF-8. */
    QueueConfig config() {
        return new QueueConfig(visibilityTimeout(), 5, 10_000, metrics, Codec.utf8());
    }

    /** What {@code q} reported to its metrics so far. */
    RecordingMetrics.Counts reported(MessageQueue<?> q) {
        return metrics.of(q.name());
    }

    MessageQueue<String> newQueue() {
        return newQueue(config());
    }

    MessageQueue<String> newQueue(QueueConfig config) {
        String name = Tck.uniqueName(testInfo);
        MessageQueue<String> q = createQueue(name, config);
        created.add(q);
        return q;
    }

    /** Registers something to close after the test. */
    <C extends AutoCloseable> C closeLater(C closeable) {
        created.add(closeable);
        return closeable;
    }

    static <T> Delivery<T> next(MessageQueue<T> q) throws InterruptedException {
        Delivery<T> d = q.poll(GENEROUS_MS, MILLISECONDS);
        assertThat(d).as("a delivery from %s within %s", q.name(), GENEROUS).isNotNull();
        return d;
    }

    void assertNothingDelivered(MessageQueue<String> q) throws InterruptedException {
        Delivery<String> d = q.poll(quietPeriod().toMillis(), MILLISECONDS);
        assertThat(d).as("no delivery from %s within %s", q.name(), quietPeriod()).isNull();
    }

    /** Lets {@code d} and a margin pass on the transport's clock. */
    void advancePast(Duration d) throws InterruptedException {
        time().advance(d.plus(d.dividedBy(4)).plusMillis(20));
    }

    void advancePastLease() throws InterruptedException {
        advancePast(visibilityTimeout());
    }

    static boolean inSendOrder(Semantics s) {
        return s.ordering() == Semantics.Ordering.FIFO || s.ordering() == Semantics.Ordering.DUE_TIME;
    }

    /** Skips a test of an order on a transport that promises none. */
    static void assumeOrdered(MessageQueue<?> q) {
        assumeTrue(inSendOrder(q.semantics()), "the transport promises no order: " + q.semantics());
    }

    /** Skips a test of leases and redelivery on an at-most-once transport. */
    static void assumeLeases(MessageQueue<?> q) {
        assumeTrue(q.semantics().redelivers(), "at-most-once: no lease: " + q.semantics());
    }

    /**
     * Asserts that the next delivery of {@code q} is not handed out before {@code delay} has
     * passed since {@code start}, and is after. On a virtual clock exactly: nothing one millisecond
     * before the delay. On real time by measuring on the transport's clock ({@link TimeControl#now()},
     * the wall clock that Redis and the in-memory queue read), from {@code start} (taken before the
     * call that set the delay) to the hand-out. The wall clock, not {@code System.nanoTime}: a host
     * whose wall clock is being slewed runs the two apart by more than a millisecond in a second.
     */
    <T> Delivery<T> assertNotBefore(Duration delay, Instant start, MessageQueue<T> q) throws InterruptedException {
        if (time().isVirtual()) {
            time().advance(delay.minusMillis(1));
            assertThat(q.poll()).as("handed out 1 ms before its delay of %s", delay).isNull();
            time().advance(Duration.ofMillis(1));
            return next(q);
        }
        Delivery<T> d = next(q);
        Duration waited = Duration.between(start, time().now());
        assertThat(waited).as("handed out after %s, before its delay of %s", waited, delay).isGreaterThanOrEqualTo(delay);
        return d;
    }

    static ConsumeOptions quickOptions(int concurrency, Duration backoff) {
        return quickOptionsBuilder(concurrency, backoff).build();
    }

    /** Consumers that notice a stop quickly, and whose close cannot hold up a test for long. */
    static ConsumeOptions.Builder quickOptionsBuilder(int concurrency, Duration backoff) {
        return ConsumeOptions.builder()
                .concurrency(concurrency)
                .backoff(backoff, backoff)
                .pollTimeout(Duration.ofMillis(100))
                .shutdownTimeout(Duration.ofSeconds(5));
    }

    /** Whether {@code q}, which has nothing ready, refuses to hand out messages: it is closing. */
    static boolean receivingRefused(MessageQueue<?> q) {
        try {
            assertThat(q.poll()).as("a queue with nothing ready handed out a message").isNull();
            return false;
        } catch (QueueClosedException e) {
            return true;
        }
    }

    static List<String> payloads(Collection<? extends Delivery<String>> deliveries) {
        return deliveries.stream().map(Delivery::payload).collect(Collectors.toList());
    }

    @Nested
    @DisplayName("send and sendAll store messages for delivery")
    class Sending {

        @Test
        void send_thenPoll_returnsThePayloadAsFirstAttempt() throws Exception {
            MessageQueue<String> q = newQueue();
            MessageId id = q.send("hello");

            Delivery<String> d = next(q);

            assertThat(d.id()).isEqualTo(id);
            assertThat(d.payload()).isEqualTo("hello");
            assertThat(d.attempt()).isEqualTo(1);
            assertThat(d.enqueuedAt()).isNotNull();
            assertThat(d.ack()).isTrue();
        }

        @Test
        void send_returnsADistinctIdForEveryMessage_evenForEqualPayloads() {
            MessageQueue<String> q = newQueue();
            Set<MessageId> ids = new HashSet<>();
            for (int i = 0; i < 50; i++) {
                ids.add(q.send("same"));
            }
            assertThat(ids).hasSize(50);
            assertThat(q.stats().ready()).isEqualTo(50);
        }

        @Test
        void sendAll_storesInCollectionOrder_andReturnsIdsInThatOrder() throws Exception {
            MessageQueue<String> q = newQueue();
            List<MessageId> ids = q.sendAll(List.of("a", "b", "c"));

            assertThat(ids).hasSize(3).doesNotHaveDuplicates();
            List<Delivery<String>> got = List.of(next(q), next(q), next(q));
            assertThat(payloads(got)).containsExactlyInAnyOrder("a", "b", "c");
            assertThat(got).extracting(Delivery::id).containsExactlyInAnyOrderElementsOf(ids);
            assumeOrdered(q);
            assertThat(payloads(got)).containsExactly("a", "b", "c");
            assertThat(got).extracting(Delivery::id).containsExactlyElementsOf(ids);
        }

        @Test
        void generatedIds_carryTheGeneratedMark() {
            MessageQueue<String> q = newQueue();
            List<MessageId> ids = new ArrayList<>(q.sendAll(List.of("a", "b")));
            ids.add(q.send("c"));
            assertThat(ids).allSatisfy(id -> assertThat(id.isGenerated()).as("%s is marked generated", id).isTrue());
        }

        @Test
        void sendAll_emptyCollection_returnsNoIdsAndStoresNothing() {
            MessageQueue<String> q = newQueue();
            assertThat(q.sendAll(List.of())).isEmpty();
            assertThat(q.stats().total()).isZero();
            assertThat(q.poll()).isNull();
        }

        @Test
        void sendAll_withANullElement_throwsAndStoresNothing() {
            MessageQueue<String> q = newQueue();
            assertThatThrownBy(() -> q.sendAll(Arrays.asList("a", null, "c")))
                    .isInstanceOf(NullPointerException.class);
            assertThat(q.stats().total()).isZero();
            assertThat(q.poll()).isNull();
        }

        @Test
        void send_null_throwsNullPointerException_andStoresNothing() {
            MessageQueue<String> q = newQueue();
            assertThatThrownBy(() -> q.send(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.sendAll(null)).isInstanceOf(NullPointerException.class);
            assertThat(q.stats().total()).isZero();
            assertThat(q.poll()).isNull();
        }
    }

    @Nested
    @DisplayName("poll, take and pollBatch hand out ready messages")
    class Receiving {

        @Test
        void poll_whenEmpty_returnsNullAtOnce() throws Exception {
            MessageQueue<String> q = newQueue();
            assertThat(q.poll()).isNull();
            assertThat(q.poll(0, MILLISECONDS)).isNull();
        }

        @Test
        void pollWithTimeout_whenNothingArrives_returnsNull() throws Exception {
            MessageQueue<String> q = newQueue();
            assertThat(q.poll(quietPeriod().toMillis(), MILLISECONDS)).isNull();
        }

        @Test
        void pollWithTimeoutsOfAMillisecondOrLess_returnPromptly() throws Exception {
            // Redis 6.2 reads a blocking command's timeout of about a millisecond as "forever"
            MessageQueue<String> q = newQueue();
            for (int i = 0; i < 5; i++) {
                assertThat(calls.start("poll", () -> q.poll(1, MILLISECONDS)).get()).isNull();
                assertThat(calls.start("poll", () -> q.poll(500, TimeUnit.MICROSECONDS)).get()).isNull();
                assertThat(calls.start("pollBatch", () -> q.pollBatch(5, 1, MILLISECONDS)).get()).isEmpty();
            }
        }

        @Test
        void pollWithTimeout_returnsAMessageSentWhileWaiting() throws Exception {
            MessageQueue<String> q = newQueue();
            Call<Delivery<String>> poll = calls.start("poll", () -> q.poll(GENEROUS_MS, MILLISECONDS));
            Tck.awaitParked(poll.thread, quietPeriod());

            q.send("late");

            assertThat(poll.get()).isNotNull().extracting(Delivery::payload).isEqualTo("late");
        }

        @Test
        void take_blocksUntilSend() throws Exception {
            MessageQueue<String> q = newQueue();
            Call<Delivery<String>> take = calls.start("take", q::take);
            Tck.awaitParked(take.thread, quietPeriod());
            assertThat(take.isDone()).as("take() returned before anything was sent").isFalse();

            MessageId id = q.send("x");

            Delivery<String> d = take.get();
            assertThat(d.id()).isEqualTo(id);
            assertThat(d.payload()).isEqualTo("x");
        }

        @Test
        void take_whenAMessageIsReady_returnsIt() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("ready");
            assertThat(calls.start("take", q::take).get().payload()).isEqualTo("ready");
        }

        @Test
        void pollBatch_returnsAtMostMaxMessages_inQueueOrder() throws Exception {
            MessageQueue<String> q = newQueue();
            q.sendAll(List.of("a", "b", "c", "d", "e"));

            List<Delivery<String>> first = q.pollBatch(3, GENEROUS_MS, MILLISECONDS);
            assertThat(first).hasSize(3);
            first.forEach(Delivery::ack);
            assumeOrdered(q);
            assertThat(payloads(first)).containsExactly("a", "b", "c");
        }

        @Test
        @Timeout(value = 20, unit = SECONDS)
        void pollBatch_returnsWhatIsReady_withoutWaitingToFillTheBatch() throws Exception {
            MessageQueue<String> q = newQueue();
            q.sendAll(List.of("a", "b"));

            // a transport that waited to fill the batch would block for 30 s and hit the timeout
            List<Delivery<String>> got = q.pollBatch(10, 30, SECONDS);

            assertThat(payloads(got)).containsExactlyInAnyOrder("a", "b");
        }

        @Test
        void pollBatch_waitsForTheFirstMessage() throws Exception {
            MessageQueue<String> q = newQueue();
            Call<List<Delivery<String>>> batch = calls.start("pollBatch", () -> q.pollBatch(5, GENEROUS_MS, MILLISECONDS));
            Tck.awaitParked(batch.thread, quietPeriod());
            assertThat(batch.isDone()).isFalse();

            q.send("first");

            assertThat(payloads(batch.get())).containsExactly("first");
        }

        @Test
        void pollBatch_whenNothingArrives_returnsAnEmptyList() throws Exception {
            MessageQueue<String> q = newQueue();
            assertThat(q.pollBatch(5, quietPeriod().toMillis(), MILLISECONDS)).isEmpty();
        }

        @Test
        void pollAndPollBatch_refuseNegativeTimeouts_badBatchSizes_andNullUnits() {
            MessageQueue<String> q = newQueue();
            q.send("kept");
            assertThatThrownBy(() -> q.poll(-1, SECONDS)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.poll(1, null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.pollBatch(5, -1, SECONDS)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.pollBatch(0, 1, SECONDS)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.pollBatch(5, 1, null)).isInstanceOf(NullPointerException.class);
            // refused calls took nothing
            assertThat(q.stats().ready()).isEqualTo(1);
            assertThat(q.stats().inFlight()).isZero();
        }
    }

    @Nested
    @DisplayName("semantics() states promises the queue keeps")
    class Promises {

        @Test
        void semantics_isConstant_andMatchesTheQueueType() {
            MessageQueue<String> q = newQueue();
            Semantics s = q.semantics();

            assertThat(s).isNotNull().isEqualTo(q.semantics());
            assertThat(s.transport()).isNotBlank();
            assertThat(s.delays()).as("delays() is true exactly for a DelayQueue").isEqualTo(q instanceof DelayQueue);
            assertThat(s.ordering()).as("a work queue has no publish order").isNotEqualTo(Semantics.Ordering.PUBLISH_ORDER);
        }

        @Test
        void name_isTheNameGiven() {
            String name = Tck.uniqueName(testInfo);
            MessageQueue<String> q = closeLater(createQueue(name, config()));
            assertThat(q.name()).isEqualTo(name);
        }

        @Test
        void ordering_messagesAreHandedOutAsPromised() throws Exception {
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

            List<String> got = new ArrayList<>();
            for (int i = 0; i < sent.size(); i++) {
                Delivery<String> d = next(q);
                got.add(d.payload());
                d.ack();
            }

            if (inSendOrder(q.semantics())) {
                assertThat(got).containsExactlyElementsOf(sent);
            } else {
                assertThat(got).containsExactlyInAnyOrderElementsOf(sent);
            }
        }

        @Test
        void retention_messagesSentWhileNoOneConsumes_areKeptOrDropped() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("sent before any consumer");

            if (q.semantics().retainedWithoutConsumers()) {
                assertThat(next(q).payload()).isEqualTo("sent before any consumer");
            } else {
                assertNothingDelivered(q);
            }
        }

        @Test
        void fanOut_eachMessageReachesOneConsumer_orEveryConsumer() throws Exception {
            MessageQueue<String> q = newQueue();
            List<String> first = new CopyOnWriteArrayList<>();
            List<String> second = new CopyOnWriteArrayList<>();
            closeLater(q.consume(d -> first.add(d.payload()), quickOptions(1, Duration.ZERO)));
            closeLater(q.consume(d -> second.add(d.payload()), quickOptions(1, Duration.ZERO)));
            List<String> sent = IntStream.range(0, 20).mapToObj(i -> "m" + i).collect(Collectors.toList());

            q.sendAll(sent);

            if (q.semantics().fanOut()) {
                await().untilAsserted(() -> {
                    assertThat(first).containsExactlyInAnyOrderElementsOf(sent);
                    assertThat(second).containsExactlyInAnyOrderElementsOf(sent);
                });
            } else {
                await().until(() -> first.size() + second.size() >= sent.size());
                assertThat(q.poll(quietPeriod().toMillis(), MILLISECONDS)).isNull();
                List<String> all = new ArrayList<>(first);
                all.addAll(second);
                assertThat(all).as("each message to exactly one consumer").containsExactlyInAnyOrderElementsOf(sent);
            }
        }
    }

    @Nested
    @DisplayName("ack settles a delivery once")
    class Acknowledging {

        @Test
        void ack_returnsTrueOnce_thenFalse() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            Delivery<String> d = next(q);

            assertThat(d.ack()).isTrue();
            assertThat(d.ack()).isFalse();
        }

        @Test
        void ack_deletesTheMessage() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            next(q).ack();

            assertThat(q.stats().total()).isZero();
            assertThat(q.poll()).isNull();
        }

        @Test
        void settling_afterAck_returnsFalse_andChangesNothing() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            Delivery<String> d = next(q);
            d.ack();

            assertThat(d.retry(Duration.ZERO)).isFalse();
            assertThat(d.deadLetter("too late")).isFalse();
            assertThat(q.stats().total()).isZero();
            assertThat(q.poll()).isNull();
        }

        @Test
        void ackAll_settlesEachDeliveryOnce_andSkipsSettledOnes() throws Exception {
            MessageQueue<String> q = newQueue();
            q.sendAll(List.of("a", "b", "c"));
            List<Delivery<String>> got = new ArrayList<>();
            while (got.size() < 3) {
                got.addAll(q.pollBatch(3 - got.size(), 10, TimeUnit.SECONDS));
            }
            assertThat(got.get(0).ack()).isTrue();

            assertThat(q.ackAll(got)).as("the two not yet acked").isEqualTo(2);
            assertThat(q.ackAll(got)).as("all already settled").isZero();
            assertThat(q.stats().total()).isZero();
            assertThat(got.get(1).ack()).isFalse();
            assertThatThrownBy(() -> q.ackAll(null)).isInstanceOf(NullPointerException.class);
        }

        @Test
        void ack_afterTheLeaseExpired_returnsFalse_andKeepsTheRedeliveredMessage() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            Delivery<String> stale = next(q);

            advancePastLease();

            if (q.semantics().redelivers()) {
                assertThat(stale.ack()).as("ack after the lease expired").isFalse();
                Delivery<String> again = next(q);
                assertThat(again.id()).isEqualTo(stale.id());
                assertThat(again.attempt()).isEqualTo(2);
                assertThat(stale.ack()).as("stale ack while the message is in flight again").isFalse();
                assertThat(q.stats().inFlight()).isEqualTo(1);
                assertThat(again.ack()).isTrue();
            } else {
                assertThat(stale.ack()).as("at-most-once: no lease to expire").isTrue();
                assertNothingDelivered(q);
            }
            assertThat(q.stats().total()).isZero();
        }

        // ---- settling once, whatever the guarantee (one guard on every transport)

        @Test
        void settling_raced_fromManyThreads_succeedsForExactlyOneCall() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            Delivery<String> d = next(q);
            int threads = 6;
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger won = new AtomicInteger();
            List<Thread> racers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int kind = i % 3;
                Thread t = new Thread(() -> {
                    try {
                        start.await();
                        boolean first = kind == 0 ? d.ack() : kind == 1 ? d.retry(Duration.ZERO) : d.deadLetter("raced");
                        if (first) {
                            won.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "settle-racer-" + i);
                t.start();
                racers.add(t);
            }
            start.countDown();
            for (Thread t : racers) {
                t.join(GENEROUS_MS);
            }

            assertThat(won.get()).as("settling calls that returned true").isEqualTo(1);
            assertThat(q.stats().total()).as("at most the one retried or dead-lettered copy").isLessThanOrEqualTo(1);
            assertThat(q.stats().inFlight()).isZero();
        }
    }

    @Nested
    @DisplayName("an unsettled delivery comes back after its lease, or never (at-most-once)")
    class Redelivery {

        @Test
        void unsettled_whileTheLeaseHolds_isNotDeliveredAgain() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            Delivery<String> d = next(q);

            if (time().isVirtual()) {
                time().advance(visibilityTimeout().minusMillis(1));
                assertThat(q.poll()).as("handed out again 1 ms before its lease ended").isNull();
            } else {
                // most of the lease, leaving a margin for the time the server's lease starts later
                time().advance(visibilityTimeout().multipliedBy(2).dividedBy(5));
                assertNothingDelivered(q);
            }
            assertThat(q.stats().ready()).isZero();
            assertThat(q.stats().inFlight()).isEqualTo(q.semantics().redelivers() ? 1 : 0);
            assertThat(d.ack()).as("the delivery still owns its message").isTrue();
        }

        @Test
        void unsettled_afterTheLease_isRedeliveredWithAttemptRaised_onlyIfAtLeastOnce() throws Exception {
            MessageQueue<String> q = newQueue();
            MessageId id = q.send("x");
            Delivery<String> first = next(q);

            advancePastLease();

            if (q.semantics().redelivers()) {
                Delivery<String> second = next(q);
                assertThat(second.id()).isEqualTo(id);
                assertThat(second.payload()).isEqualTo("x");
                assertThat(second.attempt()).isEqualTo(2);
                assertThat(second.enqueuedAt()).isEqualTo(first.enqueuedAt());
                assertThat(second.ack()).isTrue();
            } else {
                assertNothingDelivered(q);
                assertThat(q.stats().total()).as("at-most-once: gone once handed out").isZero();
            }
        }

        @Test
        void take_reachesAMessageWhoseLeaseBeganAndExpiredWhileItWaited() throws Exception {
            MessageQueue<String> q = newQueue();
            assumeLeases(q);
            Call<Delivery<String>> first = calls.start("take", q::take);
            Call<Delivery<String>> second = calls.start("take", q::take);
            Tck.awaitParked(first.thread, quietPeriod());
            Tck.awaitParked(second.thread, quietPeriod());

            q.send("abandoned"); // one of them takes it and abandons it; the other waits on
            await().until(() -> first.isDone() || second.isDone());
            Call<Delivery<String>> waiting = first.isDone() ? second : first;
            advancePastLease();

            Delivery<String> d = waiting.get();
            assertThat(d.payload()).isEqualTo("abandoned");
            assertThat(d.attempt()).isEqualTo(2);
        }

        @Test
        void leaseExpiry_onTheLastAttempt_movesTheMessageToDeadLetters() throws Exception {
            MessageQueue<String> q = newQueue(config().withMaxAttempts(2));
            MessageId id = q.send("poison");
            next(q);
            advancePastLease();

            if (q.semantics().redelivers()) {
                assertThat(next(q).attempt()).isEqualTo(2);
                advancePastLease();
                List<Delivery<String>> unexpected = new ArrayList<>();
                await().untilAsserted(() -> {
                    Delivery<String> d = q.poll();
                    if (d != null) {
                        unexpected.add(d);
                    }
                    assertThat(q.deadLetters().size()).isEqualTo(1);
                });
                assertThat(unexpected).as("deliveries past the maximum attempts").isEmpty();
                DeadLetter<String> dl = q.deadLetters().list(10).get(0);
                assertThat(dl.id()).isEqualTo(id);
                assertThat(dl.payload()).isEqualTo("poison");
                assertThat(dl.attempts()).isEqualTo(2);
                assertThat(dl.reason()).isNotNull();
                assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
            } else {
                assertNothingDelivered(q);
                assertThat(q.deadLetters().size()).isZero();
                assertThat(q.stats().total()).isZero();
            }
        }
    }

    @Nested
    @DisplayName("retry gives a delivery back, after a delay, with its attempt raised")
    class Retrying {

        @Test
        void retry_withDelay_isNotRedeliveredBeforeTheDelay_thenWithAttemptRaised() throws Exception {
            MessageQueue<String> q = newQueue();
            MessageId id = q.send("x");
            Duration delay = visibilityTimeout().dividedBy(2);
            Delivery<String> d = next(q);
            Instant start = time().now();

            assertThat(d.retry(delay)).isTrue();

            assertThat(q.poll()).isNull();
            QueueStats waiting = q.stats();
            assertThat(waiting.delayed()).as("a retry counts as delayed while it waits").isEqualTo(1);
            assertThat(waiting.inFlight()).isZero();
            assertThat(waiting.ready()).isZero();

            Delivery<String> again = assertNotBefore(delay, start, q);
            assertThat(again.id()).isEqualTo(id);
            assertThat(again.payload()).isEqualTo("x");
            assertThat(again.attempt()).isEqualTo(2);
            assertThat(again.ack()).isTrue();
        }

        @Test
        void retry_withZeroDelay_goesBehindTheMessagesAlreadyWaiting() throws Exception {
            MessageQueue<String> q = newQueue();
            q.sendAll(List.of("a", "b"));
            Delivery<String> a = next(q);

            assertThat(a.retry(Duration.ZERO)).isTrue();

            Delivery<String> n1 = next(q);
            Delivery<String> n2 = next(q);
            Delivery<String> retried = n1.id().equals(a.id()) ? n1 : n2;
            assertThat(retried.attempt()).isEqualTo(2);
            assumeOrdered(q);
            assertThat(n1.payload()).isEqualTo("b");
            assertThat(n2.payload()).isEqualTo("a");
        }

        @Test
        void retry_isNeverEarly_byAFractionOfAMillisecond() throws Exception {
            MessageQueue<String> q = newQueue(config().withMaxAttempts(1000));
            q.send("x");
            Delivery<String> d = next(q);
            Duration delay = Duration.ofNanos(2_500_000);

            for (int i = 0; i < 20; i++) {
                Instant start = time().now();
                assertThat(d.retry(delay)).isTrue();
                d = assertNotBefore(delay, start, q);
            }
            assertThat(d.ack()).isTrue();
        }

        @Test
        void retry_twice_storesTheMessageOnce() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            Delivery<String> d = next(q);

            assertThat(d.retry(Duration.ZERO)).isTrue();
            assertThat(d.retry(Duration.ZERO)).as("second retry").isFalse();

            assertThat(next(q).ack()).isTrue();
            assertNothingDelivered(q);
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void retry_refusesNullAndNegativeDelays_leavingTheDeliveryUnsettled() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            Delivery<String> d = next(q);

            assertThatThrownBy(() -> d.retry(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> d.retry(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);

            assertThat(q.stats().delayed()).isZero();
            assertThat(d.ack()).as("still unsettled after the refused retries").isTrue();
        }

        // ---- the longest retry delay is DelayQueue.MAX_DELAY, on every transport

        @Test
        void retry_beyondTheMaximumDelay_isRefused_leavingTheDeliveryUnsettled() throws Exception {
            MessageQueue<String> q = newQueue();
            q.sendAll(List.of("x", "y"));
            Delivery<String> d = next(q);

            assertThatThrownBy(() -> d.retry(DelayQueue.MAX_DELAY.plusMillis(1)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DelayQueue.MAX_DELAY");
            assertThat(q.stats().delayed()).isZero();
            assertThat(d.ack()).as("still unsettled after the refused retry").isTrue();

            assertThat(next(q).retry(DelayQueue.MAX_DELAY)).as("the maximum itself").isTrue();
            assertThat(q.stats().delayed()).isEqualTo(1);
        }
    }

    @Nested
    @DisplayName("dead letters keep failed messages for inspection, requeue and purge")
    class DeadLettering {

        @Test
        void deadLetter_listsIdPayloadReasonAndAttempts() throws Exception {
            MessageQueue<String> q = newQueue();
            MessageId id = q.send("bad");
            next(q).retry(Duration.ZERO);
            Delivery<String> second = next(q);

            assertThat(second.deadLetter("cannot parse")).isTrue();

            assertThat(q.deadLetters().size()).isEqualTo(1);
            List<DeadLetter<String>> list = q.deadLetters().list(10);
            assertThat(list).hasSize(1);
            DeadLetter<String> dl = list.get(0);
            assertThat(dl.id()).isEqualTo(id);
            assertThat(dl.payload()).isEqualTo("bad");
            assertThat(dl.reason()).isEqualTo("cannot parse");
            assertThat(dl.attempts()).isEqualTo(2);
            assertThat(dl.deadAt()).isNotNull();
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
            assertThat(second.ack()).as("a dead letter cannot be acked").isFalse();
            assertThat(q.poll()).isNull();
        }

        @Test
        void deadLetter_withNullReason_recordsAnEmptyReason() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            assertThat(next(q).deadLetter(null)).isTrue();
            assertThat(q.deadLetters().list(1).get(0).reason()).isEmpty();
        }

        @Test
        void list_returnsAtMostLimit_oldestFirst_andRefusesNonPositiveLimits() throws Exception {
            MessageQueue<String> q = newQueue();
            q.sendAll(List.of("a", "b", "c"));
            for (int i = 0; i < 3; i++) {
                next(q).deadLetter("r" + i);
            }

            List<DeadLetter<String>> two = q.deadLetters().list(2);

            assertThat(two).extracting(DeadLetter::reason).containsExactly("r0", "r1");
            assertThatThrownBy(() -> q.deadLetters().list(0)).isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void list_isInTheOrderTheyDied_evenWithinOneMillisecond() throws Exception {
            MessageQueue<String> q = newQueue();
            q.sendAll(IntStream.range(0, 12).mapToObj(i -> "m" + i).collect(Collectors.toList()));
            List<Delivery<String>> got = new ArrayList<>();
            while (got.size() < 12) {
                got.addAll(q.pollBatch(12 - got.size(), GENEROUS_MS, MILLISECONDS));
            }
            List<String> died = new ArrayList<>();

            for (int i = got.size() - 1; i >= 0; i--) { // against id order, as fast as it goes
                got.get(i).deadLetter("no");
                died.add(got.get(i).payload());
            }

            assertThat(q.deadLetters().list(20)).extracting(DeadLetter::payload).containsExactlyElementsOf(died);
        }

        @Test
        void requeue_deliversTheMessageAgain_asAFirstAttempt() throws Exception {
            MessageQueue<String> q = newQueue();
            MessageId id = q.send("x");
            next(q).retry(Duration.ZERO);
            next(q).deadLetter("failed twice");

            assertThat(q.deadLetters().requeue(id)).isTrue();

            assertThat(q.deadLetters().size()).isZero();
            Delivery<String> d = next(q);
            assertThat(d.id()).isEqualTo(id);
            assertThat(d.payload()).isEqualTo("x");
            assertThat(d.attempt()).isEqualTo(1);
            assertThat(q.deadLetters().requeue(id)).as("no longer a dead letter").isFalse();
        }

        @Test
        void requeue_unknownId_returnsFalse() {
            MessageQueue<String> q = newQueue();
            assertThat(q.deadLetters().requeue(MessageId.of("no-such-message"))).isFalse();
            assertThatThrownBy(() -> q.deadLetters().requeue(null)).isInstanceOf(NullPointerException.class);
        }

        @Test
        void requeueAll_requeuesEveryDeadLetter_oldestFirst() throws Exception {
            MessageQueue<String> q = newQueue();
            q.sendAll(List.of("a", "b", "c"));
            List<String> buried = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Delivery<String> d = next(q);
                d.deadLetter("no");
                buried.add(d.payload());
            }

            assertThat(q.deadLetters().requeueAll()).isEqualTo(3);

            assertThat(q.deadLetters().size()).isZero();
            List<Delivery<String>> again = List.of(next(q), next(q), next(q));
            assertThat(again).extracting(Delivery::attempt).containsOnly(1);
            assertThat(payloads(again)).containsExactlyInAnyOrderElementsOf(buried);
            assertThat(q.deadLetters().requeueAll()).isZero();
            assumeOrdered(q);
            assertThat(payloads(again)).containsExactlyElementsOf(buried);
        }

        @Test
        void purge_deletesEveryDeadLetter() throws Exception {
            MessageQueue<String> q = newQueue();
            q.sendAll(List.of("a", "b", "ready"));
            next(q).deadLetter("no");
            next(q).deadLetter("no");

            assertThat(q.deadLetters().purge()).isEqualTo(2);

            assertThat(q.deadLetters().size()).isZero();
            assertThat(q.deadLetters().list(10)).isEmpty();
            assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
            assertThat(q.deadLetters().purge()).isZero();
        }

        @Test
        void retention_dropsTheOldestDeadLetters() throws Exception {
            MessageQueue<String> q = newQueue(config().withDeadLetterRetention(3));
            q.sendAll(List.of("m1", "m2", "m3", "m4", "m5"));
            List<String> order = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                Delivery<String> d = next(q);
                order.add(d.payload());
                d.deadLetter("no");
            }

            assertThat(q.deadLetters().size()).isEqualTo(3);
            assertThat(q.deadLetters().list(10)).extracting(DeadLetter::payload)
                    .containsExactlyElementsOf(order.subList(2, 5));
        }

        // ---- a retention of 0 keeps no dead letters, on every transport

        @Test
        void retention_ofZero_keepsNoDeadLetters() throws Exception {
            MessageQueue<String> q = newQueue(config().withDeadLetterRetention(0));
            q.send("x");

            assertThat(next(q).deadLetter("not kept")).isTrue();
            assertThat(q.deadLetters().size()).isZero();
            assertThat(q.deadLetters().list(10)).isEmpty();
            assertThat(q.stats().total()).isZero();
        }
    }

    @Nested
    @DisplayName("consume() runs named workers that settle each delivery")
    class Consuming {

        @Test
        void consume_acksWhenTheHandlerReturns() throws Exception {
            MessageQueue<String> q = newQueue();
            List<Delivery<String>> handled = new CopyOnWriteArrayList<>();
            closeLater(q.consume(handled::add, quickOptions(1, Duration.ZERO)));

            q.send("x");

            await().untilAsserted(() -> {
                assertThat(handled).hasSize(1);
                assertThat(q.stats().total()).isZero();
            });
            assertThat(handled.get(0).payload()).isEqualTo("x");
            assertThat(handled.get(0).ack()).as("already acked by the worker").isFalse();
        }

        @Test
        void consume_inBatches_acksEveryMessage_andRetriesOnlyTheFailedOne() throws Exception {
            MessageQueue<String> q = newQueue();
            List<String> payloads = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                payloads.add("m" + i);
            }
            q.sendAll(payloads);
            Map<String, Integer> seen = new ConcurrentHashMap<>();
            closeLater(q.consume(d -> {
                seen.merge(d.payload(), 1, Integer::sum);
                if (d.payload().equals("m7") && d.attempt() == 1) {
                    throw new IllegalStateException("m7 fails once");
                }
            }, ConsumeOptions.builder().concurrency(2).batchSize(10).backoff(Duration.ZERO, Duration.ZERO)
                    .pollTimeout(Duration.ofMillis(100)).build()));

            await().untilAsserted(() -> {
                assertThat(seen).hasSize(50);
                assertThat(q.stats().total()).isZero();
            });
            assertThat(seen.get("m7")).isEqualTo(2);
            seen.remove("m7");
            assertThat(seen.values()).as("acked after the first handling").containsOnly(1);
        }

        @Test
        void consume_retriesWithBackoff_whenTheHandlerThrows() throws Exception {
            MessageQueue<String> q = newQueue();
            Duration backoff = visibilityTimeout().dividedBy(2);
            List<Integer> attempts = new CopyOnWriteArrayList<>();
            AtomicReference<Instant> failedAt = new AtomicReference<>();
            AtomicReference<Instant> retriedAt = new AtomicReference<>();
            closeLater(q.consume(d -> {
                attempts.add(d.attempt());
                if (d.attempt() == 1) {
                    failedAt.set(time().now());
                    throw new IllegalStateException("first attempt fails");
                }
                retriedAt.set(time().now());
            }, quickOptions(1, backoff)));

            q.send("x");

            await().untilAsserted(() -> assertThat(q.stats().delayed()).isEqualTo(1));
            if (time().isVirtual()) {
                time().advance(backoff.minusMillis(1));
                await().during(quietPeriod()).atMost(GENEROUS)
                        .untilAsserted(() -> assertThat(attempts).as("retried 1 ms before the backoff").containsExactly(1));
                time().advance(Duration.ofMillis(1));
            }
            await().untilAsserted(() -> {
                assertThat(attempts).containsExactly(1, 2);
                assertThat(q.stats().total()).isZero();
            });
            assertThat(Duration.between(failedAt.get(), retriedAt.get())).as("time from the failure to the retry, on the transport's clock")
                    .isGreaterThanOrEqualTo(backoff);
        }

        @Test
        void consume_survivesHandlersThatThrowErrors_orLeaveTheirThreadInterrupted() throws Exception {
            MessageQueue<String> q = newQueue();
            Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
            Subscription sub = closeLater(q.consume(d -> {
                seen.computeIfAbsent(d.payload(), p -> new CopyOnWriteArrayList<>()).add(d.attempt());
                if (d.payload().equals("stack overflow") && d.attempt() == 1) {
                    throw new StackOverflowError("thrown by the handler");
                }
                if (d.payload().equals("linkage") && d.attempt() == 1) {
                    throw new NoClassDefFoundError("thrown by the handler");
                }
                if (d.payload().startsWith("interrupt")) {
                    Thread.currentThread().interrupt();
                }
            }, quickOptions(1, Duration.ZERO)));

            q.sendAll(List.of("stack overflow", "linkage", "interrupt 1", "interrupt 2", "after"));

            await().untilAsserted(() -> {
                assertThat(seen).containsKey("after");
                assertThat(q.stats().total()).isZero();
            });
            assertThat(seen.get("stack overflow")).as("an Error is a failed attempt").containsExactly(1, 2);
            assertThat(seen.get("linkage")).containsExactly(1, 2);
            assertThat(seen.get("interrupt 1")).as("returned normally, so acked").containsExactly(1);
            assertThat(sub.isActive()).isTrue();
        }

        @Test
        void consume_inBatches_settlesEachSuccessBeforeItsLeaseLapses() throws Exception {
            MessageQueue<String> q = newQueue();
            Duration each = visibilityTimeout().dividedBy(5);
            List<String> sent = IntStream.range(0, 10).mapToObj(i -> "m" + i).collect(Collectors.toList());
            q.sendAll(sent);
            List<String> handled = new CopyOnWriteArrayList<>();
            closeLater(q.consume(d -> {
                handled.add(d.payload() + "#" + d.attempt());
                time().advance(each); // ten of them take two leases
            }, quickOptionsBuilder(1, Duration.ZERO).batchSize(10).build()));

            await().untilAsserted(() -> {
                assertThat(handled).hasSizeGreaterThanOrEqualTo(sent.size());
                assertThat(q.stats().total()).isZero();
            });
            assertThat(handled).as("each handled once, as its first attempt")
                    .containsExactlyInAnyOrderElementsOf(sent.stream().map(p -> p + "#1").collect(Collectors.toList()));
            assertThat(reported(q).redelivered.get()).isZero();
            assertThat(reported(q).deadLettered.get()).isZero();
        }

        @Test
        void consume_deadLettersAfterMaxAttempts_whenTheHandlerAlwaysThrows() throws Exception {
            MessageQueue<String> q = newQueue(config().withMaxAttempts(3));
            List<Integer> attempts = new CopyOnWriteArrayList<>();
            closeLater(q.consume(d -> {
                attempts.add(d.attempt());
                throw new IllegalStateException("boom");
            }, quickOptions(1, Duration.ZERO)));

            MessageId id = q.send("poison");

            await().untilAsserted(() -> assertThat(q.deadLetters().size()).isEqualTo(1));
            assertThat(attempts).containsExactly(1, 2, 3);
            DeadLetter<String> dl = q.deadLetters().list(1).get(0);
            assertThat(dl.id()).isEqualTo(id);
            assertThat(dl.attempts()).isEqualTo(3);
            assertThat(dl.reason()).contains("boom");
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        }

        @Test
        void consume_runsWorkersNamedAfterTheQueue_eachMessageHandledOnce() throws Exception {
            MessageQueue<String> q = newQueue();
            Map<String, Integer> counts = new ConcurrentHashMap<>();
            MessageHandler<String> handler = d -> counts.merge(d.payload(), 1, Integer::sum);
            closeLater(q.consume(handler, quickOptions(4, Duration.ZERO)));
            closeLater(q.consume(handler, quickOptions(2, Duration.ZERO)));
            List<String> sent = IntStream.range(0, 200).mapToObj(i -> "m" + i).collect(Collectors.toList());

            q.sendAll(sent);

            await().untilAsserted(() -> assertThat(q.stats().total()).isZero());
            assertThat(counts).containsOnlyKeys(sent);
            assertThat(counts.values()).containsOnly(1);
            // as MessageQueue.consume documents: queuekit-<queue>-consumer-<n>, n from 1 across consume calls
            Set<String> names = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                    .filter(n -> n.startsWith("queuekit-" + q.name() + "-")).collect(Collectors.toSet());
            Set<String> expected = IntStream.rangeClosed(1, 6).mapToObj(n -> "queuekit-" + q.name() + "-consumer-" + n)
                    .collect(Collectors.toSet());
            assertThat(names).containsAll(expected);
            assertThat(names).filteredOn(n -> n.contains("-consumer-")).hasSize(6);
        }

        @Test
        void closingTheSubscription_stopsTheWorkers() throws Exception {
            MessageQueue<String> q = newQueue();
            List<String> handled = new CopyOnWriteArrayList<>();
            Subscription sub = q.consume(d -> handled.add(d.payload()), quickOptions(2, Duration.ZERO));
            q.send("before");
            await().until(() -> handled.contains("before"));

            sub.close();

            assertThat(sub.isActive()).isFalse();
            String prefix = "queuekit-" + q.name() + "-consumer-";
            await().until(() -> !Tck.threadAlive(prefix));
            q.send("after");
            assertThat(next(q).payload()).isEqualTo("after");
            assertThat(handled).containsExactly("before");
            sub.close();
        }

        @Test
        void consume_refusesNulls() {
            MessageQueue<String> q = newQueue();
            assertThatThrownBy(() -> q.consume(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.consume(d -> { }, null)).isInstanceOf(NullPointerException.class);
        }
    }

    @Nested
    @DisplayName("a delivery settles only the hand-out it came from")
    class Fencing {

        @Test
        void staleDelivery_cannotSettleItsMessage_requeuedFromTheDeadLetters() throws Exception {
            MessageQueue<String> q = newQueue();
            assumeLeases(q);
            MessageId id = q.send("x");
            Delivery<String> stale = next(q);
            advancePastLease();
            Delivery<String> second = next(q);
            assertThat(second.attempt()).isEqualTo(2);
            assertThat(second.deadLetter("to be requeued")).isTrue();
            assertThat(q.deadLetters().requeue(id)).isTrue();

            Delivery<String> fresh = next(q);

            assertThat(fresh.id()).isEqualTo(id);
            assertThat(fresh.attempt()).as("a requeued message starts again at the stale one's attempt")
                    .isEqualTo(stale.attempt());
            assertThat(stale.ack()).as("stale ack").isFalse();
            assertThat(stale.retry(Duration.ZERO)).as("stale retry").isFalse();
            assertThat(stale.deadLetter("stale")).as("stale dead letter").isFalse();
            assertThat(stale.extendLease(visibilityTimeout())).as("stale lease extension").isFalse();
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
            assertThat(fresh.ack()).as("the fresh delivery still owns its message").isTrue();
            assertThat(q.stats().total()).isZero();
        }

        @Test
        void staleDelivery_afterTheNewerOneRetried_cannotSettleTwice() throws Exception {
            MessageQueue<String> q = newQueue();
            assumeLeases(q);
            q.send("x");
            Delivery<String> stale = next(q);
            advancePastLease();
            Delivery<String> second = next(q);

            assertThat(second.retry(Duration.ZERO)).isTrue();
            assertThat(stale.retry(Duration.ZERO)).as("stale retry").isFalse();

            Delivery<String> third = next(q);
            assertThat(third.attempt()).isEqualTo(3);
            assertNothingDelivered(q);
            assertThat(third.ack()).isTrue();
        }
    }

    @Nested
    @DisplayName("a lease lasts while its holder works: extended by hand, renewed for managed handlers")
    class LeaseExtension {

        @Test
        void extendLease_keepsTheMessageFromComingBack_untilTheLongerLeaseEnds() throws Exception {
            MessageQueue<String> q = newQueue();
            assumeLeases(q);
            q.send("x");
            Delivery<String> d = next(q);

            assertThat(d.extendLease(visibilityTimeout().multipliedBy(3))).isTrue();

            advancePastLease();
            assertNothingDelivered(q);
            assertThat(d.ack()).as("still owned after the first lease would have ended").isTrue();
        }

        @Test
        void extendLease_afterTheLeaseExpired_returnsFalse_andTheMessageComesBack() throws Exception {
            MessageQueue<String> q = newQueue();
            assumeLeases(q);
            q.send("x");
            Delivery<String> d = next(q);
            advancePastLease();

            assertThat(d.extendLease(visibilityTimeout())).isFalse();

            assertThat(next(q).attempt()).isEqualTo(2);
        }

        @Test
        void extendLease_afterSettling_returnsFalse() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            Delivery<String> d = next(q);
            assertThat(d.extendLease(visibilityTimeout())).as("unsettled").isTrue();
            assertThat(d.ack()).isTrue();

            assertThat(d.extendLease(visibilityTimeout())).isFalse();
        }

        @Test
        void extendLease_refusesDurationsOutOfRange_leavingTheDeliveryAsItWas() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            Delivery<String> d = next(q);

            assertThatThrownBy(() -> d.extendLease(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> d.extendLease(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> d.extendLease(Duration.ofHours(13))).isInstanceOf(IllegalArgumentException.class);

            assertThat(d.ack()).isTrue();
        }

        @Test
        void managedHandler_slowerThanTheLease_keepsItsMessage() throws Exception {
            MessageQueue<String> q = newQueue();
            assumeLeases(q);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<Integer> attempts = new CopyOnWriteArrayList<>();
            closeLater(q.consume(d -> {
                attempts.add(d.attempt());
                started.countDown();
                release.await();
            }, quickOptions(1, Duration.ZERO)));
            q.send("slow");
            assertThat(started.await(GENEROUS_MS, MILLISECONDS)).isTrue();

            try {
                time().advance(visibilityTimeout().multipliedBy(5).dividedBy(2));
                assertNothingDelivered(q);
            } finally {
                release.countDown();
            }

            await().untilAsserted(() -> {
                assertThat(q.stats().total()).isZero();
                assertThat(reported(q).acked.get()).isEqualTo(1);
            });
            assertThat(attempts).containsExactly(1);
            assertThat(reported(q).redelivered.get()).isZero();
        }

        @Test
        void managedHandler_stillRunningWhenItsConsumerClosed_losesItsMessageAfterOneLease() throws Exception {
            MessageQueue<String> q = newQueue();
            assumeLeases(q);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Subscription sub = q.consume(d -> {
                started.countDown();
                while (true) { // deaf to the interrupt of the close
                    try {
                        release.await();
                        return;
                    } catch (InterruptedException e) {
                        // keeps waiting
                    }
                }
            }, quickOptionsBuilder(1, Duration.ZERO).shutdownTimeout(Duration.ofMillis(100)).build());
            q.send("hangs");
            assertThat(started.await(GENEROUS_MS, MILLISECONDS)).isTrue();

            try {
                sub.close();
                advancePastLease();
                Delivery<String> again = next(q);
                assertThat(again.attempt()).isEqualTo(2);
                assertThat(again.ack()).isTrue();
            } finally {
                release.countDown();
            }
        }

        @Test
        void managedHandler_pastTheRenewalLimit_losesItsMessage() throws Exception {
            MessageQueue<String> q = newQueue();
            assumeLeases(q);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            closeLater(q.consume(d -> {
                started.countDown();
                release.await();
            }, quickOptionsBuilder(1, Duration.ZERO).leaseRenewalLimit(visibilityTimeout()).build()));
            q.send("hangs");
            assertThat(started.await(GENEROUS_MS, MILLISECONDS)).isTrue();

            try {
                advancePast(visibilityTimeout().multipliedBy(2)); // the limit, then at most one lease
                Delivery<String> again = next(q);
                assertThat(again.attempt()).isEqualTo(2);
                assertThat(again.ack()).isTrue();
            } finally {
                release.countDown();
            }
        }
    }

    /** UTF-8, except that it cannot encode "unencodable..." nor decode what "undecodable..." became. */
    static final Codec<String> PICKY = new Codec<>() {
        @Override
        public byte[] encode(String payload) {
            if (payload.startsWith("unencodable")) {
                throw new IllegalStateException("the picky codec cannot encode " + payload);
            }
            return Codec.utf8().encode(payload);
        }

        @Override
        public String decode(byte[] bytes) {
            String s = Codec.utf8().decode(bytes);
            if (s.startsWith("undecodable")) {
                throw new IllegalStateException("the picky codec cannot decode " + s);
            }
            return s;
        }

        @Override
        public String toString() {
            return "the contract's picky codec";
        }
    };

    @Nested
    @DisplayName("a payload its codec cannot handle fails the same way on every transport")
    class CodecFailures {

        MessageQueue<String> pickyQueue() {
            assumeTrue(appliesCodec(), "this run of the transport stores payloads without a codec");
            return newQueue(config().withCodec(PICKY));
        }

        @Test
        void send_ofAPayloadTheCodecCannotEncode_throwsSerializationException_andStoresNothing() {
            MessageQueue<String> q = pickyQueue();

            assertThatThrownBy(() -> q.send("unencodable")).isInstanceOf(SerializationException.class)
                    .hasMessageContaining("picky codec");
            assertThatThrownBy(() -> q.sendAll(List.of("fine", "unencodable"))).isInstanceOf(SerializationException.class);

            assertThat(q.stats().total()).isZero();
        }

        @Test
        void payload_ofAnUndecodableMessage_throwsSerializationException_andItCanStillBeSettled() throws Exception {
            MessageQueue<String> q = pickyQueue();
            MessageId id = q.send("undecodable");
            Delivery<String> d = next(q);

            assertThatThrownBy(d::payload).isInstanceOf(SerializationException.class).hasMessageContaining("picky codec");

            assertThat(d.deadLetter("cannot read it")).isTrue();
            List<DeadLetter<String>> dead = q.deadLetters().list(10);
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).id()).isEqualTo(id);
            assertThat(dead.get(0).payload()).as("listed, with no payload").isNull();
            assertThat(dead.get(0).reason()).startsWith("cannot read it");
        }

        @Test
        void consume_deadLettersAnUndecodableMessageAtOnce_andServesTheOthers() throws Exception {
            MessageQueue<String> q = pickyQueue();
            List<String> handled = new CopyOnWriteArrayList<>();
            closeLater(q.consume(d -> handled.add(d.payload()), quickOptions(1, Duration.ZERO)));

            q.sendAll(List.of("undecodable", "fine"));

            await().untilAsserted(() -> {
                assertThat(handled).containsExactly("fine");
                assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
            });
            DeadLetter<String> dl = q.deadLetters().list(1).get(0);
            assertThat(dl.attempts()).as("no retry can decode it").isEqualTo(1);
            assertThat(dl.reason()).startsWith("undecodable");
            assertThat(dl.payload()).isNull();
        }

        // ---- one payload limit on every transport: 1 MiB of encoded bytes unless set

        @Test
        void send_ofAPayloadAboveTheDefaultLimitOf1MiB_isRefused_andStoresNothing() {
            assumeTrue(appliesCodec(), "this run of the transport stores payloads without a codec");
            MessageQueue<String> q = newQueue();
            String atLimit = "x".repeat(1 << 20);

            assertThatThrownBy(() -> q.send(atLimit + "x")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("above the limit of 1048576 bytes (maxPayloadBytes)");
            assertThatThrownBy(() -> q.sendAll(List.of("fine", atLimit + "x"))).isInstanceOf(IllegalArgumentException.class);
            assertThat(q.stats().total()).isZero();

            q.send(atLimit);
            assertThat(q.stats().total()).isEqualTo(1);
        }

        // ---- listing an undecodable dead letter never throws, and its reason says so once

        @Test
        void deadLetters_list_ofAnUndecodableBody_addsToTheReasonThatThePayloadIsUndecodable() throws Exception {
            MessageQueue<String> q = pickyQueue();
            q.send("undecodable");
            next(q).deadLetter("cannot read it");

            DeadLetter<String> dl = q.deadLetters().list(10).get(0);
            assertThat(dl.payload()).isNull();
            assertThat(dl.reason()).startsWith("cannot read it (payload undecodable: ").contains("picky codec").endsWith(")");
        }

        @Test
        void deadLetters_list_ofAMessageDeadLetteredAsUndecodable_keepsItsReasonAsItIs() throws Exception {
            MessageQueue<String> q = pickyQueue();
            q.send("undecodable");
            closeLater(q.consume(d -> d.payload(), quickOptions(1, Duration.ZERO)));
            await().untilAsserted(() -> assertThat(q.stats().dead()).isEqualTo(1));

            DeadLetter<String> dl = q.deadLetters().list(10).get(0);
            assertThat(dl.payload()).isNull();
            assertThat(dl.reason()).startsWith("undecodable").doesNotContain(" (payload");
        }
    }

    @Nested
    @DisplayName("many consumers share the work without duplicates or loss")
    class Concurrency {

        @Test
        @Timeout(value = 120, unit = SECONDS)
        void eightConsumers_tenThousandMessages_eachDeliveredOnce() throws Exception {
            MessageQueue<String> q = newQueue();
            int total = 10_000;
            for (int start = 0; start < total; start += 1_000) {
                q.sendAll(IntStream.range(start, start + 1_000).mapToObj(i -> "m" + i).collect(Collectors.toList()));
            }
            Map<String, Integer> seen = new ConcurrentHashMap<>();
            AtomicInteger received = new AtomicInteger();
            AtomicInteger failedAcks = new AtomicInteger();
            List<Call<Void>> consumers = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                consumers.add(calls.start("consumer", () -> {
                    while (received.get() < total) {
                        Delivery<String> d = q.poll(50, MILLISECONDS);
                        if (d == null) {
                            continue;
                        }
                        seen.merge(d.payload(), 1, Integer::sum);
                        received.incrementAndGet();
                        if (!d.ack()) {
                            failedAcks.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }

            await().atMost(Duration.ofSeconds(100)).until(() -> received.get() >= total);
            for (Call<Void> c : consumers) {
                c.get();
            }

            assertThat(seen).hasSize(total);
            assertThat(seen.entrySet()).filteredOn(e -> e.getValue() != 1).as("duplicates").isEmpty();
            assertThat(failedAcks.get()).isZero();
            assertThat(q.stats().total()).isZero();
        }
    }

    @Nested
    @DisplayName("stats() counts ready, in-flight, delayed and dead messages")
    class Stats {

        @Test
        void stats_countEachStateSeparately() throws Exception {
            MessageQueue<String> q = newQueue();
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
            q.sendAll(List.of("in-flight", "delayed", "dead", "ready"));
            Delivery<String> inFlight = next(q);
            next(q).retry(visibilityTimeout().multipliedBy(100));
            next(q).deadLetter("test");

            QueueStats s = q.stats();

            boolean leased = q.semantics().redelivers();
            assertThat(s).isEqualTo(new QueueStats(1, leased ? 1 : 0, 1, 1));
            assertThat(s.total()).isEqualTo(leased ? 4 : 3);
            inFlight.ack();
            assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 1, 1));
        }

        @Test
        void stats_countAMessageWhoseLeaseExpired_asReady() throws Exception {
            MessageQueue<String> q = newQueue();
            assumeLeases(q);
            q.send("abandoned");
            next(q);

            advancePastLease();

            await().untilAsserted(() -> assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 0)));
        }

        @Test
        void stats_countARetryThatFellDue_asReady() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("retried");
            Duration delay = visibilityTimeout().dividedBy(2);
            assertThat(next(q).retry(delay)).isTrue();
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));

            advancePast(delay);

            await().untilAsserted(() -> assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 0)));
        }
    }

    @Nested
    @DisplayName("close() stops the queue's users and is final")
    class Closing {

        @Test
        void close_wakesACallerBlockedInTake_withQueueClosedException() throws Exception {
            MessageQueue<String> q = newQueue();
            Call<Delivery<String>> take = calls.start("take", q::take);
            Tck.awaitParked(take.thread, quietPeriod());

            q.close();

            assertThat(take.failure()).isInstanceOf(QueueClosedException.class);
        }

        @Test
        void close_wakesACallerBlockedInPoll_withQueueClosedException() throws Exception {
            MessageQueue<String> q = newQueue();
            Call<Delivery<String>> poll = calls.start("poll", () -> q.poll(1, MINUTES));
            Tck.awaitParked(poll.thread, quietPeriod());

            q.close();

            assertThat(poll.failure()).isInstanceOf(QueueClosedException.class);
        }

        @Test
        void close_makesEveryLaterCallThrowQueueClosedException() {
            MessageQueue<String> q = newQueue();
            q.send("kept");

            q.close();

            List<ThrowingCall> later = List.of(
                    () -> q.send("x"), () -> q.sendAll(List.of("x")), q::poll,
                    () -> q.poll(1, MILLISECONDS), q::take, () -> q.pollBatch(2, 1, MILLISECONDS),
                    q::stats, () -> q.consume(d -> { }), () -> q.deadLetters().size(),
                    () -> q.deadLetters().list(1), () -> q.deadLetters().requeueAll(),
                    () -> q.deadLetters().purge());
            for (ThrowingCall call : later) {
                assertThatThrownBy(call::run).isInstanceOf(QueueClosedException.class);
            }
        }

        @Test
        void close_isIdempotent() {
            MessageQueue<String> q = newQueue();
            q.close();
            q.close();
            assertThatThrownBy(q::poll).isInstanceOf(QueueClosedException.class);
        }

        @Test
        void close_stopsConsumers() throws Exception {
            MessageQueue<String> q = newQueue();
            Subscription sub = q.consume(d -> { }, quickOptions(2, Duration.ZERO));
            String prefix = "queuekit-" + q.name() + "-consumer-";
            await().until(() -> Tck.threadAlive(prefix));

            q.close();

            assertThat(sub.isActive()).isFalse();
            await().until(() -> !Tck.threadAlive(prefix));
        }

        /**
         * Closes {@code q} while a managed handler runs: the handler waits until closing has begun,
         * then returns or, if {@code handlerFails}, throws. Returns once close() returned, having
         * checked that it waited for the handler.
         */
        void closeWhileAHandlerRuns(MessageQueue<String> q, boolean handlerFails) throws Exception {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            closeLater(q.consume(d -> {
                started.countDown();
                release.await();
                if (handlerFails) {
                    throw new IllegalStateException("fails while the queue closes");
                }
            }, quickOptions(1, Duration.ZERO)));
            q.send("in hand");
            assertThat(started.await(GENEROUS_MS, MILLISECONDS)).isTrue();

            Call<Void> close = calls.start("close", () -> {
                q.close();
                return null;
            });
            try {
                await().until(() -> receivingRefused(q));
                assertThat(close.isDone()).as("close() returned while a handler ran").isFalse();
            } finally {
                release.countDown();
            }
            close.get();
        }

        @Test
        void close_letsARunningHandlerFinish_andAcksItsMessage() throws Exception {
            MessageQueue<String> q = newQueue();

            closeWhileAHandlerRuns(q, false);

            assertThat(reported(q).acked.get()).as("acked while closing").isEqualTo(1);
            assertThat(reported(q).redelivered.get()).isZero();
        }

        @Test
        void close_letsAFailingHandlerRetry_soItsMessageIsKept() throws Exception {
            MessageQueue<String> q = newQueue();

            closeWhileAHandlerRuns(q, true);

            assertThat(reported(q).retried.get()).as("retried while closing").isEqualTo(1);
        }

        @Test
        void close_acksWhatABatchFinished_thoughALaterHandlerOutlivesTheShutdownTimeout() throws Exception {
            MessageQueue<String> q = newQueue();
            CountDownLatch slowStarted = new CountDownLatch(1);
            closeLater(q.consume(d -> {
                if (d.payload().equals("slow")) {
                    slowStarted.countDown();
                    new CountDownLatch(1).await(); // until close interrupts it
                }
            }, quickOptionsBuilder(1, Duration.ZERO).batchSize(2).shutdownTimeout(Duration.ofMillis(200)).build()));
            q.sendAll(List.of("fast", "slow"));
            assertThat(slowStarted.await(GENEROUS_MS, MILLISECONDS)).isTrue();

            calls.start("close", () -> {
                q.close();
                return null;
            }).get();

            assertThat(reported(q).acked.get()).as("the batch's finished message, acked before the queue closed")
                    .isEqualTo(1);
        }

        @Test
        void close_calledByAHandlerOfTheQueue_stillSettlesThatHandlersMessage() throws Exception {
            MessageQueue<String> q = newQueue();
            closeLater(q.consume(d -> q.close(), quickOptions(1, Duration.ZERO)));

            q.send("close the queue");

            await().untilAsserted(() -> assertThat(reported(q).acked.get()).isEqualTo(1));
            await().until(() -> receivingRefused(q));
            await().untilAsserted(() -> assertThatThrownBy(q::stats).isInstanceOf(QueueClosedException.class));
        }

        @Test
        void close_interruptsAHandlerStillRunningAfterTheShutdownTimeout() throws Exception {
            MessageQueue<String> q = newQueue();
            CountDownLatch started = new CountDownLatch(1);
            AtomicBoolean interrupted = new AtomicBoolean();
            closeLater(q.consume(d -> {
                started.countDown();
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    throw e;
                }
            }, quickOptionsBuilder(1, Duration.ZERO).shutdownTimeout(Duration.ofMillis(200)).build()));
            q.send("hangs");
            assertThat(started.await(GENEROUS_MS, MILLISECONDS)).isTrue();

            calls.start("close", () -> {
                q.close();
                return null;
            }).get();

            await().untilTrue(interrupted);
            assertThat(reported(q).acked.get()).isZero();
        }

        @Test
        void settling_afterClose_throwsQueueClosedException() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("x");
            Delivery<String> d = next(q);

            q.close();

            assertThatThrownBy(d::ack).isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> d.retry(Duration.ZERO)).isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> d.deadLetter("x")).isInstanceOf(QueueClosedException.class);
        }

        // ---- a consume racing close: refused, or stopped by the close (one registration on every transport)

        @Test
        void consume_racingClose_isRefusedOrStoppedByIt() throws Exception {
            for (int round = 0; round < 5; round++) {
                MessageQueue<String> q = newQueue();
                CountDownLatch go = new CountDownLatch(1);
                AtomicReference<Object> outcome = new AtomicReference<>();
                Thread starter = new Thread(() -> {
                    try {
                        go.await();
                        outcome.set(q.consume(d -> { }, quickOptions(1, Duration.ZERO)));
                    } catch (QueueClosedException e) {
                        outcome.set(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "consume-racer");
                starter.start();
                go.countDown();
                q.close();
                starter.join(GENEROUS_MS);

                assertThat(outcome.get()).as("round %d: consume returned or threw", round).isNotNull();
                if (outcome.get() instanceof Subscription sub) {
                    await().untilAsserted(() -> assertThat(sub.isActive()).as("stopped by the close").isFalse());
                }
                assertThatThrownBy(() -> q.consume(d -> { }, quickOptions(1, Duration.ZERO)))
                        .isInstanceOf(QueueClosedException.class);
            }
        }
    }

    @Nested
    @DisplayName("blocking calls answer interrupts with InterruptedException")
    class Interrupts {

        @Test
        void take_interruptedBeforeTheCall_throwsAtOnce_andTakesNothing() throws Exception {
            MessageQueue<String> q = newQueue();
            q.send("stays");

            Call<Delivery<String>> take = calls.start("take", () -> {
                Thread.currentThread().interrupt();
                return q.take();
            });

            assertThat(take.failure(INTERRUPT_BOUND)).isInstanceOf(InterruptedException.class);
            assertThat(q.stats().ready()).as("the ready message was not taken").isEqualTo(1);
            assertThat(next(q).attempt()).isEqualTo(1);
        }

        @Test
        void pollWithTimeout_interruptedBeforeTheCall_throwsAtOnce() throws Exception {
            MessageQueue<String> q = newQueue();
            Call<Delivery<String>> poll = calls.start("poll", () -> {
                Thread.currentThread().interrupt();
                return q.poll(GENEROUS_MS, MILLISECONDS);
            });

            assertThat(poll.failure(INTERRUPT_BOUND)).isInstanceOf(InterruptedException.class);
        }

        @Test
        void take_interruptedWhileBlocked_throwsInterruptedException() throws Exception {
            MessageQueue<String> q = newQueue();
            Call<Delivery<String>> take = calls.start("take", q::take);
            Tck.awaitParked(take.thread, quietPeriod());

            take.thread.interrupt();

            assertThat(take.failure(INTERRUPT_BOUND)).isInstanceOf(InterruptedException.class);
        }

        @Test
        void pollWithTimeout_interruptedWhileBlocked_throwsInterruptedException() throws Exception {
            MessageQueue<String> q = newQueue();
            Call<Delivery<String>> poll = calls.start("poll", () -> q.poll(1, MINUTES));
            Tck.awaitParked(poll.thread, quietPeriod());

            poll.thread.interrupt();

            assertThat(poll.failure(INTERRUPT_BOUND)).isInstanceOf(InterruptedException.class);
        }
    }

    /** A call expected to throw. */
    @FunctionalInterface
    interface ThrowingCall {
        Object run() throws Exception;
    }
}

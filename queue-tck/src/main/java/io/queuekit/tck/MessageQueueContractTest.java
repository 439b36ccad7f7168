package io.queuekit.tck;

import static java.util.concurrent.TimeUnit.SECONDS;

import io.queuekit.Codec;
import io.queuekit.MessageQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of {@link MessageQueue}, every part of it: every queue transport passes it by
 * extending this class with a few lines.
 *
 * <pre>{@code
 * class RedisListQueueContractTest extends MessageQueueContractTest {
 *     @Override protected MessageQueue<String> createQueue(String name, QueueConfig config) {
 *         return RedisListQueue.builder(client, name, Codec.utf8())
 *                 .visibilityTimeout(config.visibilityTimeout()).maxAttempts(config.maxAttempts())
 *                 .deadLetterRetention(config.deadLetterRetention()).observations(config.observations())
 *                 .build();
 *     }
 *     @Override protected TimeControl time() { return TimeControl.real(); }
 * }
 * }</pre>
 *
 * <p>Easy to get wrong: {@link #time()} is a virtual clock for in-memory transports (advancing is
 * instant) or {@link TimeControl#real()} for servers (advancing sleeps), and on real time each test
 * that waits out a lease costs about 1.25 times {@link #visibilityTimeout()}, so keep that short (1 s
 * by default on real time). How the suite is built: {@code docs/contract-suite.md}.
 */
@Timeout(value = 60, unit = SECONDS)
public abstract class MessageQueueContractTest {

    /**
     * A new queue named {@code name} (unique to one test) with exactly the settings in
     * {@code config}, holding strings. The suite closes it after the test. A transport that can
     * keep an order per key builds it with {@link QueueConfig#key()} where that is not null.
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

    /**
     * Whether {@link #createQueue} stores payloads with {@code config.codec()}. A transport that
     * can also keep objects as they are (in memory) may run the suite once that way and return
     * false there: the tests of codec failures are then skipped.
     */
    protected boolean appliesCodec() {
        return true;
    }

    private final List<AutoCloseable> created = new CopyOnWriteArrayList<>();
    private final Tck.Calls calls = new Tck.Calls();
    private final RecordingMetrics metrics = new RecordingMetrics();
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

    /** The settings most tests use: the visibility timeout, 5 attempts, 10,000 dead letters, UTF-8. */
    QueueConfig config() {
        return new QueueConfig(visibilityTimeout(), 5, 10_000, metrics, Codec.utf8());
    }

    MessageQueue<String> newQueue(QueueConfig config) {
        return newQueue(Tck.uniqueName(testInfo), config);
    }

    MessageQueue<String> newQueue(String name, QueueConfig config) {
        return closeLater(createQueue(name, config));
    }

    /** Registers something to close after the test. */
    <C extends AutoCloseable> C closeLater(C closeable) {
        created.add(closeable);
        return closeable;
    }

    /**
     * Where a part of the contract reaches the transport and this test's resources: a
     * {@code @Nested} class extends it and implements the part's interface.
     */
    abstract class Part implements QueueContract {

        @Override
        public final MessageQueue<String> newQueue(QueueConfig config) {
            return MessageQueueContractTest.this.newQueue(config);
        }

        @Override
        public final MessageQueue<String> newQueue(String name, QueueConfig config) {
            return MessageQueueContractTest.this.newQueue(name, config);
        }

        @Override
        public final String uniqueName() {
            return Tck.uniqueName(testInfo);
        }

        @Override
        public final QueueConfig config() {
            return MessageQueueContractTest.this.config();
        }

        @Override
        public final TimeControl time() {
            return MessageQueueContractTest.this.time();
        }

        @Override
        public final Duration visibilityTimeout() {
            return MessageQueueContractTest.this.visibilityTimeout();
        }

        @Override
        public final Duration quietPeriod() {
            return MessageQueueContractTest.this.quietPeriod();
        }

        @Override
        public final boolean appliesCodec() {
            return MessageQueueContractTest.this.appliesCodec();
        }

        @Override
        public final <C extends AutoCloseable> C closeLater(C closeable) {
            return MessageQueueContractTest.this.closeLater(closeable);
        }

        @Override
        public final <V> Call<V> call(String what, Callable<V> body) {
            return calls.start(what, body);
        }

        @Override
        public final RecordingMetrics.Counts reported(MessageQueue<?> q) {
            return metrics.of(q.name());
        }
    }

    @Nested
    @DisplayName("send and sendAll store messages for delivery")
    class Sending extends Part implements SendingContract {}

    @Nested
    @DisplayName("poll, take and pollBatch hand out ready messages, also to many consumers at once")
    class Receiving extends Part implements ReceivingContract {}

    @Nested
    @DisplayName("semantics() states promises the queue keeps")
    class Promises extends Part implements PromisesContract {}

    @Nested
    @DisplayName("one consumer gets each key's messages in send order where the queue keeps an order per key")
    class KeyedOrder extends Part implements KeyedOrderContract {}

    @Nested
    @DisplayName("ack and retry settle a delivery once")
    class Settling extends Part implements SettlingContract {}

    @Nested
    @DisplayName("an unsettled delivery comes back after its lease, which lasts while its holder works (at-least-once)")
    class Leases extends Part implements LeaseContract {}

    @Nested
    @DisplayName("a message handed out is gone, settled or not (at-most-once)")
    class AtMostOnce extends Part implements AtMostOnceContract {}

    @Nested
    @DisplayName("dead letters keep failed messages for inspection, requeue and purge")
    class DeadLettering extends Part implements DeadLetterContract {}

    @Nested
    @DisplayName("consume() runs named workers that settle each delivery")
    class Consuming extends Part implements ConsumingContract {}

    @Nested
    @DisplayName("a paused queue keeps what is sent and hands nothing out until it is resumed")
    class Pausing extends Part implements PauseContract {}

    @Nested
    @DisplayName("close() stops the queue's users and is final")
    class Closing extends Part implements ClosingContract {}

    @Nested
    @DisplayName("blocking calls answer interrupts with InterruptedException")
    class Interrupts extends Part implements InterruptContract {}

    @Nested
    @DisplayName("bad input gets a clear answer and changes nothing")
    class BadInput extends Part implements BadInputContract {}

    @Nested
    @DisplayName("every message sent gets an id of its own")
    class Ids extends Part implements IdContract {}

    @Nested
    @DisplayName("stats(), semantics() and name() describe the queue")
    class Stats extends Part implements StatsContract {}

    @Nested
    @DisplayName("a payload its codec cannot handle fails the same way on every transport")
    class CodecFailures extends Part implements CodecContract {}

    @Nested
    @DisplayName("every delivery of a message returns the headers it was sent with, exactly")
    class MessageHeaders extends Part implements HeadersContract {}

    @Nested
    @DisplayName("observations see every send, add their headers, and wrap every managed handling")
    class Observations extends Part implements ObservationsContract {}
}

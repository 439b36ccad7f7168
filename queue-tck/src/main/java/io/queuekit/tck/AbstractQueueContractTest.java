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
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * A queue transport under contract, with no part of the contract yet: the hooks a transport
 * implements, and what one test's queues need (their names, closing them, threads, metrics).
 * {@link MessageQueueContractTest} adds every part of the contract; to run only some, extend this
 * class and declare a {@code @Nested} class per part, extending {@link Part}:
 *
 * <pre>{@code
 * class MyQueueSendingContractTest extends AbstractQueueContractTest {
 *     @Override protected MessageQueue<String> createQueue(String name, QueueConfig config) { ... }
 *     @Override protected TimeControl time() { return TimeControl.real(); }
 *
 *     @Nested class Sending extends Part implements SendingContract {}
 * }
 * }</pre>
 */
@Timeout(value = 60, unit = SECONDS)
public abstract class AbstractQueueContractTest {

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

    MessageQueue<String> newQueue() {
        return newQueue(config());
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
    protected abstract class Part implements QueueContract {

        @Override
        public final MessageQueue<String> newQueue(QueueConfig config) {
            return AbstractQueueContractTest.this.newQueue(config);
        }

        @Override
        public final MessageQueue<String> newQueue(String name, QueueConfig config) {
            return AbstractQueueContractTest.this.newQueue(name, config);
        }

        @Override
        public final String uniqueName() {
            return Tck.uniqueName(testInfo);
        }

        @Override
        public final QueueConfig config() {
            return AbstractQueueContractTest.this.config();
        }

        @Override
        public final TimeControl time() {
            return AbstractQueueContractTest.this.time();
        }

        @Override
        public final Duration visibilityTimeout() {
            return AbstractQueueContractTest.this.visibilityTimeout();
        }

        @Override
        public final Duration quietPeriod() {
            return AbstractQueueContractTest.this.quietPeriod();
        }

        @Override
        public final boolean appliesCodec() {
            return AbstractQueueContractTest.this.appliesCodec();
        }

        @Override
        public final <C extends AutoCloseable> C closeLater(C closeable) {
            return AbstractQueueContractTest.this.closeLater(closeable);
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
}

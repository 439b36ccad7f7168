package io.queuekit.tck;

import static io.queuekit.tck.Tck.next;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.tck.BadInputCatalogue.SeededQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;

/**
 * What every part of the queue contract is given: queues of the transport under test, made for one
 * test and closed after it, the transport's time, and the helpers the parts share.
 *
 * <p>A part is an interface extending this one whose tests are default methods, one part per
 * concern ({@link SendingContract}, {@link LeaseContract}, ...), as Micrometer's compatibility kit
 * composes {@code CounterTest}, {@code TimerTest} and the rest; like those, the parts stay inside
 * this package. {@link MessageQueueContractTest} runs each by a {@code @Nested} class that extends
 * {@link MessageQueueContractTest.Part} and implements it. A test of a promise only
 * some transports make begins with a JUnit assumption on the queue's
 * {@link io.queuekit.Semantics}, so where the promise is not made it reports as skipped, never as
 * a pass.
 */
interface QueueContract {

    /** A new queue with a name unique to this test and the given settings; closed after the test. */
    MessageQueue<String> newQueue(QueueConfig config);

    /**
     * A new queue named {@code name}; closed after the test. Two queues made with one name share
     * their messages on a server, and not in memory.
     */
    MessageQueue<String> newQueue(String name, QueueConfig config);

    /** A name unique to this test and run. */
    String uniqueName();

    /** The settings most tests use: the visibility timeout, 5 attempts, 10,000 dead letters, UTF-8. */
    QueueConfig config();

    /** The transport's time. */
    TimeControl time();

    /** The visibility timeout {@link #config()} asks for. */
    Duration visibilityTimeout();

    /** How long a test watches for something that must not happen. */
    Duration quietPeriod();

    /** Whether the transport stores payloads with {@link QueueConfig#codec()} in this run. */
    boolean appliesCodec();

    /** Registers something to close after the test. */
    <C extends AutoCloseable> C closeLater(C closeable);

    /** Starts {@code body} on a thread of its own, interrupted and joined after the test. */
    <V> Call<V> call(String what, Callable<V> body);

    /** What {@code q} reported to its metrics so far, closed or not. */
    RecordingMetrics.Counts reported(MessageQueue<?> q);

    /** A new queue with the usual settings. */
    default MessageQueue<String> newQueue() {
        return newQueue(config());
    }

    /**
     * A queue seeded for the cases of {@link BadInputCatalogue} (see {@link SeededQueue}), with
     * leases long enough not to end during a case.
     */
    default SeededQueue seededQueue() throws InterruptedException {
        QueueConfig config = config().withVisibilityTimeout(Duration.ofMinutes(10));
        String name = uniqueName();
        return SeededQueue.seed(newQueue(name, config), newQueue(name, config), time().now());
    }

    default void assertNothingDelivered(MessageQueue<String> q) throws InterruptedException {
        Delivery<String> d = q.poll(quietPeriod().toMillis(), MILLISECONDS);
        assertThat(d)
                .as("no delivery from %s within %s", q.name(), quietPeriod())
                .isNull();
    }

    /** Lets {@code d} and a margin pass on the transport's clock. */
    default void advancePast(Duration d) throws InterruptedException {
        time().advance(d.plus(d.dividedBy(4)).plusMillis(20));
    }

    default void advancePastLease() throws InterruptedException {
        advancePast(visibilityTimeout());
    }

    /**
     * Asserts that the next delivery of {@code q} is not handed out before {@code delay} has
     * passed since {@code start}, and is after. On a virtual clock exactly: nothing one millisecond
     * before the delay. On real time by measuring on the transport's clock ({@link TimeControl#now()},
     * the wall clock that Redis and the in-memory queue read), from {@code start} (taken before the
     * call that set the delay) to the hand-out. The wall clock, not {@code System.nanoTime}: a host
     * whose wall clock is being slewed runs the two apart by more than a millisecond in a second.
     */
    default <T> Delivery<T> assertNotBefore(Duration delay, Instant start, MessageQueue<T> q)
            throws InterruptedException {
        if (time().isVirtual()) {
            time().advance(delay.minusMillis(1));
            assertThat(q.poll())
                    .as("handed out 1 ms before its delay of %s", delay)
                    .isNull();
            time().advance(Duration.ofMillis(1));
            return next(q);
        }
        Delivery<T> d = next(q);
        Duration waited = Duration.between(start, time().now());
        assertThat(waited)
                .as("handed out after %s, before its delay of %s", waited, delay)
                .isGreaterThanOrEqualTo(delay);
        return d;
    }
}

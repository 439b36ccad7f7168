package io.queuekit.tck;

import io.queuekit.MessageQueue;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

/**
 * The contract of {@link MessageQueue}, every part of it: every queue transport passes it by
 * extending this class with a few lines.
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
 * <p>Each part is an interface whose tests are default methods ({@link QueueContract} says how
 * they compose), run here by a {@code @Nested} class of one line. Each test creates its own queues
 * with a unique name (so tests never see each other's messages, even on a shared server) and
 * closes them afterwards. Promises made by {@link MessageQueue#semantics()} are asserted both
 * ways: an at-least-once queue is shown to redeliver after the lease ({@link LeaseContract}), an
 * at-most-once queue is shown not to ({@link AtMostOnceContract}). A test of a promise the
 * transport does not make is skipped by a JUnit assumption, so it shows as skipped, never as a
 * pass.
 *
 * <p><b>Time.</b> {@link #time()} is a virtual clock for in-memory transports (advancing is
 * instant) or {@link TimeControl#real()} for servers (advancing sleeps). On real time the tests
 * that wait out a lease cost about 1.25 times {@link #visibilityTimeout()} per lease; keep it short
 * (the default on real time is 1 s).
 */
public abstract class MessageQueueContractTest extends AbstractQueueContractTest {

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
}

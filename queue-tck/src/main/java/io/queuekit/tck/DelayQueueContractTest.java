package io.queuekit.tck;

import io.queuekit.DelayQueue;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

/**
 * The contract of {@link DelayQueue}, every part of it: every part of
 * {@link MessageQueueContractTest} (a delay queue is a complete message queue) plus scheduling,
 * alone and in batches (due together, or each at its own time), cancelling, ids a caller chooses,
 * headers on each form, and bad input to them. A transport
 * implements {@link #createQueue} returning its delay queue, and {@link #time()}.
 *
 * <p>On real time the scheduling tests wait out delays of about {@link #visibilityTimeout()}
 * (1 s by default) or a tenth of it; the ordering test schedules at absolute instants from
 * {@link TimeControl#now()}, so the transport's clock must agree with it.
 */
public abstract class DelayQueueContractTest extends MessageQueueContractTest {

    /**
     * A new delay queue named {@code name} (unique to one test) with exactly the settings in
     * {@code config}, holding strings. The suite closes it after the test.
     */
    @Override
    protected abstract DelayQueue<String> createQueue(String name, QueueConfig config);

    @Nested
    @DisplayName("schedule delays a message until it is due, and never delivers it early")
    class Scheduling extends Part implements SchedulingContract {}

    @Nested
    @DisplayName("scheduleAll and scheduleAllAt store a batch that falls due together, all or nothing")
    class Batches extends Part implements BatchSchedulingContract {}

    @Nested
    @DisplayName("scheduleEach stores a batch whose messages each fall due at their own time, all or nothing")
    class BatchesDueEach extends Part implements ScheduleEachContract {}

    @Nested
    @DisplayName("cancel removes a message that has not been handed out")
    class Cancelling extends Part implements CancellingContract {}

    @Nested
    @DisplayName("a caller-chosen id stores at most one message, and never meets a generated one")
    class ChosenIds extends Part implements ChosenIdContract {}

    @Nested
    @DisplayName("bad input to schedule and cancel gets a clear answer and changes nothing")
    class DelayBadInput extends Part implements DelayBadInputContract {}

    @Nested
    @DisplayName("recurring schedules store each tick once however many schedulers run them, never early")
    class Schedules extends Part implements SchedulesContract {}

    @Nested
    @DisplayName("every form of schedule keeps its message's headers, and a schedule ignored keeps the first's")
    class DelayHeaders extends Part implements DelayHeadersContract {}
}

package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.INTERRUPT_BOUND;
import static io.queuekit.tck.Tck.next;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import org.junit.jupiter.api.Test;

/**
 * The contract of interrupts: {@code take} and {@code poll} with a timeout answer an interrupt,
 * before or during the call, with {@link InterruptedException}, within a few seconds even on a
 * server, and take nothing.
 */
interface InterruptContract extends QueueContract {

    @Test
    default void take_interruptedBeforeTheCall_throwsAtOnce_andTakesNothing() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("stays");

        Call<Delivery<String>> take = call("take", () -> {
            Thread.currentThread().interrupt();
            return q.take();
        });

        assertThat(take.failure(INTERRUPT_BOUND)).isInstanceOf(InterruptedException.class);
        assertThat(q.stats().ready()).as("the ready message was not taken").isEqualTo(1);
        assertThat(next(q).attempt()).isEqualTo(1);
    }

    @Test
    default void pollWithTimeout_interruptedBeforeTheCall_throwsAtOnce() throws Exception {
        MessageQueue<String> q = newQueue();
        Call<Delivery<String>> poll = call("poll", () -> {
            Thread.currentThread().interrupt();
            return q.poll(GENEROUS_MS, MILLISECONDS);
        });

        assertThat(poll.failure(INTERRUPT_BOUND)).isInstanceOf(InterruptedException.class);
    }

    @Test
    default void take_interruptedWhileBlocked_throwsInterruptedException() throws Exception {
        MessageQueue<String> q = newQueue();
        Call<Delivery<String>> take = call("take", q::take);
        Tck.awaitParked(take.thread(), quietPeriod());

        take.thread().interrupt();

        assertThat(take.failure(INTERRUPT_BOUND)).isInstanceOf(InterruptedException.class);
    }

    @Test
    default void pollWithTimeout_interruptedWhileBlocked_throwsInterruptedException() throws Exception {
        MessageQueue<String> q = newQueue();
        Call<Delivery<String>> poll = call("poll", () -> q.poll(1, MINUTES));
        Tck.awaitParked(poll.thread(), quietPeriod());

        poll.thread().interrupt();

        assertThat(poll.failure(INTERRUPT_BOUND)).isInstanceOf(InterruptedException.class);
    }
}

package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.quickOptions;
import static io.queuekit.tck.Tck.quickOptionsBuilder;
import static io.queuekit.tck.Tck.receivingRefused;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.Subscription;
import io.queuekit.tck.Tck.ThrowingCall;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.MessageQueue#close()}: it wakes blocked callers, lets running
 * handlers finish and settle within their shutdown timeout, interrupts them after it, and is final
 * and idempotent.
 */
interface ClosingContract extends QueueContract {

    @Test
    default void close_wakesACallerBlockedInTake_withQueueClosedException() throws Exception {
        MessageQueue<String> q = newQueue();
        Call<Delivery<String>> take = call("take", q::take);
        Tck.awaitParked(take.thread(), quietPeriod());

        q.close();

        assertThat(take.failure()).isInstanceOf(QueueClosedException.class);
    }

    @Test
    default void close_wakesACallerBlockedInPoll_withQueueClosedException() throws Exception {
        MessageQueue<String> q = newQueue();
        Call<Delivery<String>> poll = call("poll", () -> q.poll(1, MINUTES));
        Tck.awaitParked(poll.thread(), quietPeriod());

        q.close();

        assertThat(poll.failure()).isInstanceOf(QueueClosedException.class);
    }

    @Test
    default void close_makesEveryLaterCallThrowQueueClosedException() {
        MessageQueue<String> q = newQueue();
        q.send("kept");

        q.close();

        List<ThrowingCall> later = List.of(
                () -> q.send("x"),
                () -> q.sendAll(List.of("x")),
                q::poll,
                () -> q.poll(1, MILLISECONDS),
                q::take,
                () -> q.pollBatch(2, 1, MILLISECONDS),
                q::stats,
                () -> q.consume(d -> {}),
                () -> q.deadLetters().size(),
                () -> q.deadLetters().list(1),
                () -> q.deadLetters().requeueAll(),
                () -> q.deadLetters().purge());
        for (ThrowingCall call : later) {
            assertThatThrownBy(call::run).isInstanceOf(QueueClosedException.class);
        }
    }

    @Test
    default void close_isIdempotent() {
        MessageQueue<String> q = newQueue();
        q.close();
        q.close();
        assertThatThrownBy(q::poll).isInstanceOf(QueueClosedException.class);
    }

    @Test
    default void close_stopsConsumers() throws Exception {
        MessageQueue<String> q = newQueue();
        Subscription sub = q.consume(d -> {}, quickOptions(2, Duration.ZERO));
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
    private void closeWhileAHandlerRuns(MessageQueue<String> q, boolean handlerFails) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        closeLater(q.consume(
                d -> {
                    started.countDown();
                    release.await();
                    if (handlerFails) {
                        throw new IllegalStateException("fails while the queue closes");
                    }
                },
                quickOptions(1, Duration.ZERO)));
        q.send("in hand");
        assertThat(started.await(GENEROUS_MS, MILLISECONDS)).isTrue();

        Call<Void> close = call("close", () -> {
            q.close();
            return null;
        });
        try {
            await().until(() -> receivingRefused(q));
            assertThat(close.isDone())
                    .as("close() returned while a handler ran")
                    .isFalse();
        } finally {
            release.countDown();
        }
        close.get();
    }

    @Test
    default void close_letsARunningHandlerFinish_andAcksItsMessage() throws Exception {
        MessageQueue<String> q = newQueue();

        closeWhileAHandlerRuns(q, false);

        assertThat(reported(q).acked.get()).as("acked while closing").isEqualTo(1);
        assertThat(reported(q).redelivered.get()).isZero();
    }

    @Test
    default void close_letsAFailingHandlerRetry_soItsMessageIsKept() throws Exception {
        MessageQueue<String> q = newQueue();

        closeWhileAHandlerRuns(q, true);

        assertThat(reported(q).retried.get()).as("retried while closing").isEqualTo(1);
    }

    @Test
    default void close_acksWhatABatchFinished_thoughALaterHandlerOutlivesTheShutdownTimeout() throws Exception {
        MessageQueue<String> q = newQueue();
        CountDownLatch slowStarted = new CountDownLatch(1);
        closeLater(q.consume(
                d -> {
                    if (d.payload().equals("slow")) {
                        slowStarted.countDown();
                        new CountDownLatch(1).await(); // until close interrupts it
                    }
                },
                quickOptionsBuilder(1, Duration.ZERO)
                        .batchSize(2)
                        .shutdownTimeout(Duration.ofMillis(200))
                        .build()));
        q.sendAll(List.of("fast", "slow"));
        assertThat(slowStarted.await(GENEROUS_MS, MILLISECONDS)).isTrue();

        call("close", () -> {
                    q.close();
                    return null;
                })
                .get();

        assertThat(reported(q).acked.get())
                .as("the batch's finished message, acked before the queue closed")
                .isEqualTo(1);
    }

    @Test
    default void close_calledByAHandlerOfTheQueue_stillSettlesThatHandlersMessage() throws Exception {
        MessageQueue<String> q = newQueue();
        closeLater(q.consume(d -> q.close(), quickOptions(1, Duration.ZERO)));

        q.send("close the queue");

        await().untilAsserted(() -> assertThat(reported(q).acked.get()).isEqualTo(1));
        await().until(() -> receivingRefused(q));
        await().untilAsserted(() -> assertThatThrownBy(q::stats).isInstanceOf(QueueClosedException.class));
    }

    @Test
    default void close_interruptsAHandlerStillRunningAfterTheShutdownTimeout() throws Exception {
        MessageQueue<String> q = newQueue();
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        closeLater(q.consume(
                d -> {
                    started.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                        throw e;
                    }
                },
                quickOptionsBuilder(1, Duration.ZERO)
                        .shutdownTimeout(Duration.ofMillis(200))
                        .build()));
        q.send("hangs");
        assertThat(started.await(GENEROUS_MS, MILLISECONDS)).isTrue();

        call("close", () -> {
                    q.close();
                    return null;
                })
                .get();

        await().untilTrue(interrupted);
        assertThat(reported(q).acked.get()).isZero();
    }

    @Test
    default void settling_afterClose_throwsQueueClosedException() throws Exception {
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
    default void consume_racingClose_isRefusedOrStoppedByIt() throws Exception {
        for (int round = 0; round < 5; round++) {
            MessageQueue<String> q = newQueue();
            CountDownLatch go = new CountDownLatch(1);
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread starter = new Thread(
                    () -> {
                        try {
                            go.await();
                            outcome.set(q.consume(d -> {}, quickOptions(1, Duration.ZERO)));
                        } catch (QueueClosedException e) {
                            outcome.set(e);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "consume-racer");
            starter.start();
            go.countDown();
            q.close();
            starter.join(GENEROUS_MS);

            assertThat(outcome.get())
                    .as("round %d: consume returned or threw", round)
                    .isNotNull();
            if (outcome.get() instanceof Subscription sub) {
                await().untilAsserted(() ->
                        assertThat(sub.isActive()).as("stopped by the close").isFalse());
            }
            assertThatThrownBy(() -> q.consume(d -> {}, quickOptions(1, Duration.ZERO)))
                    .isInstanceOf(QueueClosedException.class);
        }
    }
}

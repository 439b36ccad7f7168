package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.assumeOrdered;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.payloads;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of {@code poll}, {@code take} and {@code pollBatch}: they hand out ready messages,
 * wait as long as they are told to and no longer, and share the work of many consumers without
 * duplicates or loss.
 */
interface ReceivingContract extends QueueContract {

    @Test
    default void poll_whenEmpty_returnsNullAtOnce() throws Exception {
        MessageQueue<String> q = newQueue();
        assertThat(q.poll()).isNull();
        assertThat(q.poll(0, MILLISECONDS)).isNull();
    }

    @Test
    default void pollWithTimeout_whenNothingArrives_returnsNull() throws Exception {
        MessageQueue<String> q = newQueue();
        assertThat(q.poll(quietPeriod().toMillis(), MILLISECONDS)).isNull();
    }

    @Test
    default void pollWithTimeoutsOfAMillisecondOrLess_returnPromptly() throws Exception {
        // Redis 6.2 reads a blocking command's timeout of about a millisecond as "forever"
        MessageQueue<String> q = newQueue();
        for (int i = 0; i < 5; i++) {
            assertThat(call("poll", () -> q.poll(1, MILLISECONDS)).get()).isNull();
            assertThat(call("poll", () -> q.poll(500, TimeUnit.MICROSECONDS)).get())
                    .isNull();
            assertThat(call("pollBatch", () -> q.pollBatch(5, 1, MILLISECONDS)).get())
                    .isEmpty();
        }
    }

    @Test
    default void pollWithTimeout_returnsAMessageSentWhileWaiting() throws Exception {
        MessageQueue<String> q = newQueue();
        Call<Delivery<String>> poll = call("poll", () -> q.poll(GENEROUS_MS, MILLISECONDS));
        Tck.awaitParked(poll.thread(), quietPeriod());

        q.send("late");

        assertThat(poll.get()).isNotNull().extracting(Delivery::payload).isEqualTo("late");
    }

    /**
     * Polls with short timeouts, one after another, as a polling loop makes them: a message sent
     * after one of them found nothing is handed out within a few of them, not when a transport
     * next doubts that empty answer (on the Redis queues up to ten block timeouts, 10 s, with
     * leases this long).
     */
    @Test
    default void pollsWithShortTimeouts_getAMessageSentAfterOneFoundNothing_promptly() throws Exception {
        MessageQueue<String> q = newQueue(config().withVisibilityTimeout(Duration.ofMinutes(10)));
        assertThat(q.poll(100, MILLISECONDS)).isNull();

        q.send("x");

        Duration prompt = Duration.ofSeconds(3);
        long end = System.nanoTime() + prompt.toNanos();
        Delivery<String> d = null;
        while (d == null && System.nanoTime() - end < 0) {
            d = q.poll(100, MILLISECONDS);
        }
        assertThat(d)
                .as("handed out by polls of 100 ms within %s of its send", prompt)
                .isNotNull();
        assertThat(d.payload()).isEqualTo("x");
    }

    @Test
    default void take_blocksUntilSend() throws Exception {
        MessageQueue<String> q = newQueue();
        Call<Delivery<String>> take = call("take", q::take);
        Tck.awaitParked(take.thread(), quietPeriod());
        assertThat(take.isDone()).as("take() returned before anything was sent").isFalse();

        MessageId id = q.send("x");

        Delivery<String> d = take.get();
        assertThat(d.id()).isEqualTo(id);
        assertThat(d.payload()).isEqualTo("x");
    }

    @Test
    default void take_whenAMessageIsReady_returnsIt() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("ready");
        assertThat(call("take", q::take).get().payload()).isEqualTo("ready");
    }

    @Test
    default void pollBatch_returnsAtMostMaxMessages_inQueueOrder() throws Exception {
        MessageQueue<String> q = newQueue();
        q.sendAll(List.of("a", "b", "c", "d", "e"));

        List<Delivery<String>> first = q.pollBatch(3, GENEROUS_MS, MILLISECONDS);
        assertThat(first).hasSize(3);
        first.forEach(Delivery::ack);
        assumeOrdered(q);
        assertThat(payloads(first)).containsExactly("a", "b", "c");
    }

    @Test
    default void pollBatch_handsOutFullBatches_callAfterCall_whileMessagesWait() throws Exception {
        MessageQueue<String> q = newQueue();
        for (int b = 0; b < 3; b++) { // three batches: on a sharded queue without keys, a shard each
            List<String> batch = new ArrayList<>();
            for (int i = 0; i < 96; i++) {
                batch.add(b + ":" + i);
            }
            q.sendAll(batch);
        }

        List<Integer> perCall = new ArrayList<>();
        Set<String> got = new HashSet<>();
        while (got.size() < 288) {
            List<Delivery<String>> ds = q.pollBatch(32, GENEROUS_MS, MILLISECONDS);
            assertThat(ds).as("after %s calls", perCall.size()).isNotEmpty();
            perCall.add(ds.size());
            ds.forEach(d -> got.add(d.payload()));
            q.ackAll(ds);
        }

        assertThat(perCall).as("messages per call").containsExactly(32, 32, 32, 32, 32, 32, 32, 32, 32);
    }

    @Test
    @Timeout(value = 20, unit = SECONDS)
    default void pollBatch_returnsWhatIsReady_withoutWaitingToFillTheBatch() throws Exception {
        MessageQueue<String> q = newQueue();
        q.sendAll(List.of("a", "b"));

        // a transport that waited to fill the batch would block for 30 s and hit the timeout
        List<Delivery<String>> got = q.pollBatch(10, 30, SECONDS);

        assertThat(payloads(got)).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    default void pollBatch_waitsForTheFirstMessage() throws Exception {
        MessageQueue<String> q = newQueue();
        Call<List<Delivery<String>>> batch = call("pollBatch", () -> q.pollBatch(5, GENEROUS_MS, MILLISECONDS));
        Tck.awaitParked(batch.thread(), quietPeriod());
        assertThat(batch.isDone()).isFalse();

        q.send("first");

        assertThat(payloads(batch.get())).containsExactly("first");
    }

    @Test
    default void pollBatch_whenNothingArrives_returnsAnEmptyList() throws Exception {
        MessageQueue<String> q = newQueue();
        assertThat(q.pollBatch(5, quietPeriod().toMillis(), MILLISECONDS)).isEmpty();
    }

    @Test
    @Timeout(value = 120, unit = SECONDS)
    default void eightConsumers_tenThousandMessages_eachDeliveredOnce() throws Exception {
        MessageQueue<String> q = newQueue();
        int total = 10_000;
        for (int start = 0; start < total; start += 1_000) {
            q.sendAll(
                    IntStream.range(start, start + 1_000).mapToObj(i -> "m" + i).collect(Collectors.toList()));
        }
        Map<String, Integer> seen = new ConcurrentHashMap<>();
        AtomicInteger received = new AtomicInteger();
        AtomicInteger failedAcks = new AtomicInteger();
        List<Call<Void>> consumers = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            consumers.add(call("consumer", () -> {
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
        assertThat(seen.entrySet())
                .filteredOn(e -> e.getValue() != 1)
                .as("duplicates")
                .isEmpty();
        assertThat(failedAcks.get()).isZero();
        assertThat(q.stats().total()).isZero();
    }
}

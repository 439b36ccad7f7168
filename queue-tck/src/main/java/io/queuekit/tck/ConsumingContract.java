package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.payloads;
import static io.queuekit.tck.Tck.quickOptions;
import static io.queuekit.tck.Tck.quickOptionsBuilder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Subscription;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.MessageQueue#consume}: managed workers, named after the
 * queue, ack what their handler finished, retry with backoff what it failed, dead-letter it after
 * the last attempt, survive whatever the handler throws, and stop when their subscription closes.
 */
interface ConsumingContract extends QueueContract {

    @Test
    default void consume_acksWhenTheHandlerReturns() throws Exception {
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

    /**
     * A worker with a short poll timeout that went idle hands out the next message sent at once,
     * not when its transport next doubts its empty answer (on the Redis queues up to ten block
     * timeouts, 10 s, with leases this long).
     */
    @Test
    default void consume_withAShortPollTimeout_handsOutAMessageSentWhileIdle_promptly() throws Exception {
        MessageQueue<String> q = newQueue(config().withVisibilityTimeout(Duration.ofMinutes(10)));
        List<String> handled = new CopyOnWriteArrayList<>();
        closeLater(q.consume(d -> handled.add(d.payload()), quickOptions(1, Duration.ZERO)));
        q.send("first");
        // acked: the worker has gone on to fetch again, and finds nothing
        await().untilAsserted(() -> {
            assertThat(handled).containsExactly("first");
            assertThat(q.stats().total()).isZero();
        });

        q.send("second");

        Duration prompt = Duration.ofSeconds(3);
        await().atMost(prompt).untilAsserted(() -> assertThat(handled).containsExactly("first", "second"));
    }

    @Test
    default void consume_inBatches_acksEveryMessage_andRetriesOnlyTheFailedOne() throws Exception {
        MessageQueue<String> q = newQueue();
        List<String> payloads = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            payloads.add("m" + i);
        }
        q.sendAll(payloads);
        Map<String, Integer> seen = new ConcurrentHashMap<>();
        closeLater(q.consume(
                d -> {
                    seen.merge(d.payload(), 1, Integer::sum);
                    if (d.payload().equals("m7") && d.attempt() == 1) {
                        throw new IllegalStateException("m7 fails once");
                    }
                },
                ConsumeOptions.builder()
                        .concurrency(2)
                        .batchSize(10)
                        .backoff(Duration.ZERO, Duration.ZERO)
                        .pollTimeout(Duration.ofMillis(100))
                        .build()));

        await().untilAsserted(() -> {
            assertThat(seen).hasSize(50);
            assertThat(q.stats().total()).isZero();
        });
        assertThat(seen.get("m7")).isEqualTo(2);
        seen.remove("m7");
        assertThat(seen.values()).as("acked after the first handling").containsOnly(1);
    }

    @Test
    default void consume_retriesWithBackoff_whenTheHandlerThrows() throws Exception {
        MessageQueue<String> q = newQueue();
        Duration backoff = visibilityTimeout().dividedBy(2);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        AtomicReference<Instant> failedAt = new AtomicReference<>();
        AtomicReference<Instant> retriedAt = new AtomicReference<>();
        closeLater(q.consume(
                d -> {
                    attempts.add(d.attempt());
                    if (d.attempt() == 1) {
                        failedAt.set(time().now());
                        throw new IllegalStateException("first attempt fails");
                    }
                    retriedAt.set(time().now());
                },
                quickOptions(1, backoff)));

        q.send("x");

        await().untilAsserted(() -> assertThat(q.stats().delayed()).isEqualTo(1));
        if (time().isVirtual()) {
            time().advance(backoff.minusMillis(1));
            await().during(quietPeriod())
                    .atMost(GENEROUS)
                    .untilAsserted(() -> assertThat(attempts)
                            .as("retried 1 ms before the backoff")
                            .containsExactly(1));
            time().advance(Duration.ofMillis(1));
        }
        await().untilAsserted(() -> {
            assertThat(attempts).containsExactly(1, 2);
            assertThat(q.stats().total()).isZero();
        });
        assertThat(Duration.between(failedAt.get(), retriedAt.get()))
                .as("time from the failure to the retry, on the transport's clock")
                .isGreaterThanOrEqualTo(backoff);
    }

    @Test
    default void consume_survivesHandlersThatThrowErrors_orLeaveTheirThreadInterrupted() throws Exception {
        MessageQueue<String> q = newQueue();
        Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
        Subscription sub = closeLater(q.consume(
                d -> {
                    seen.computeIfAbsent(d.payload(), p -> new CopyOnWriteArrayList<>())
                            .add(d.attempt());
                    if (d.payload().equals("stack overflow") && d.attempt() == 1) {
                        throw new StackOverflowError("thrown by the handler");
                    }
                    if (d.payload().equals("linkage") && d.attempt() == 1) {
                        throw new NoClassDefFoundError("thrown by the handler");
                    }
                    if (d.payload().startsWith("interrupt")) {
                        Thread.currentThread().interrupt();
                    }
                },
                quickOptions(1, Duration.ZERO)));

        q.sendAll(List.of("stack overflow", "linkage", "interrupt 1", "interrupt 2", "after"));

        // at most once, the store is empty once the retries are handed out, before their handlers
        // record them: wait for the records too
        await().untilAsserted(() -> {
            assertThat(seen).containsKey("after");
            assertThat(seen.getOrDefault("stack overflow", List.of())).hasSizeGreaterThanOrEqualTo(2);
            assertThat(seen.getOrDefault("linkage", List.of())).hasSizeGreaterThanOrEqualTo(2);
            assertThat(q.stats().total()).isZero();
        });
        assertThat(seen.get("stack overflow"))
                .as("an Error is a failed attempt")
                .containsExactly(1, 2);
        assertThat(seen.get("linkage")).containsExactly(1, 2);
        assertThat(seen.get("interrupt 1")).as("returned normally, so acked").containsExactly(1);
        assertThat(sub.isActive()).isTrue();
    }

    @Test
    default void consume_inBatches_settlesEachSuccessBeforeItsLeaseLapses() throws Exception {
        MessageQueue<String> q = newQueue();
        Duration each = visibilityTimeout().dividedBy(5);
        List<String> sent = IntStream.range(0, 10).mapToObj(i -> "m" + i).collect(Collectors.toList());
        q.sendAll(sent);
        List<String> handled = new CopyOnWriteArrayList<>();
        closeLater(q.consume(
                d -> {
                    handled.add(d.payload() + "#" + d.attempt());
                    time().advance(each); // ten of them take two leases
                },
                quickOptionsBuilder(1, Duration.ZERO).batchSize(10).build()));

        await().untilAsserted(() -> {
            assertThat(handled).hasSizeGreaterThanOrEqualTo(sent.size());
            assertThat(q.stats().total()).isZero();
        });
        assertThat(handled)
                .as("each handled once, as its first attempt")
                .containsExactlyInAnyOrderElementsOf(
                        sent.stream().map(p -> p + "#1").collect(Collectors.toList()));
        assertThat(reported(q).redelivered.get()).isZero();
        assertThat(reported(q).deadLettered.get()).isZero();
    }

    @Test
    default void consume_deadLettersAfterMaxAttempts_whenTheHandlerAlwaysThrows() throws Exception {
        MessageQueue<String> q = newQueue(config().withMaxAttempts(3));
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        closeLater(q.consume(
                d -> {
                    attempts.add(d.attempt());
                    throw new IllegalStateException("boom");
                },
                quickOptions(1, Duration.ZERO)));

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
    default void consume_withDefaults_slowHandlersTakeOneAtATime_leavingTheRestToOtherConsumers() throws Exception {
        MessageQueue<String> q = newQueue();
        assumeTrue(q.semantics().redelivers(), "at-most-once holds nothing in flight to count");
        List<String> sent = IntStream.range(0, 24).mapToObj(i -> "m" + i).collect(Collectors.toList());
        q.sendAll(sent);
        Set<String> handled = ConcurrentHashMap.newKeySet();
        MessageHandler<String> slow = d -> {
            Thread.sleep(20); // a handler slower than the work a worker fetches ahead
            handled.add(d.payload());
        };
        // as an application writes them: no batch size set, so workers choose it
        ConsumeOptions defaults = ConsumeOptions.builder()
                .pollTimeout(Duration.ofMillis(100))
                .shutdownTimeout(Duration.ofSeconds(5))
                .build();
        closeLater(q.consume(slow, defaults));
        closeLater(q.consume(slow, defaults));

        AtomicLong most = new AtomicLong();
        await().pollInterval(Duration.ofMillis(2)).until(() -> {
            most.accumulateAndGet(q.stats().inFlight(), Math::max);
            return handled.size() == sent.size();
        });
        // a worker that fetched several at once while the others waited would hold more
        assertThat(most.get()).as("messages in flight at once, one per worker").isLessThanOrEqualTo(2);
        await().untilAsserted(() -> assertThat(q.stats().total()).isZero());
    }

    @Test
    default void consume_runsWorkersNamedAfterTheQueue_eachMessageHandledOnce() throws Exception {
        MessageQueue<String> q = newQueue();
        Map<String, Integer> counts = new ConcurrentHashMap<>();
        MessageHandler<String> handler = d -> counts.merge(d.payload(), 1, Integer::sum);
        closeLater(q.consume(handler, quickOptions(4, Duration.ZERO)));
        closeLater(q.consume(handler, quickOptions(2, Duration.ZERO)));
        List<String> sent = IntStream.range(0, 200).mapToObj(i -> "m" + i).collect(Collectors.toList());

        q.sendAll(sent);

        // both: at-most-once counts a message out of the queue when it is taken, before its handler ran
        await().untilAsserted(() -> {
            assertThat(counts).containsOnlyKeys(sent);
            assertThat(q.stats().total()).isZero();
        });
        assertThat(counts.values()).containsOnly(1);
        // as MessageQueue.consume documents: queuekit-<queue>-consumer-<n>, n from 1 across consume calls
        Set<String> names = Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(n -> n.startsWith("queuekit-" + q.name() + "-"))
                .collect(Collectors.toSet());
        Set<String> expected = IntStream.rangeClosed(1, 6)
                .mapToObj(n -> "queuekit-" + q.name() + "-consumer-" + n)
                .collect(Collectors.toSet());
        assertThat(names).containsAll(expected);
        assertThat(names).filteredOn(n -> n.contains("-consumer-")).hasSize(6);
    }

    @Test
    default void consume_withAThreadFactory_runsTheHandlersOnItsThreads_namedAsEver() throws Exception {
        MessageQueue<String> q = newQueue();
        Set<Thread> made = ConcurrentHashMap.newKeySet();
        Map<String, Thread> handledOn = new ConcurrentHashMap<>();
        ThreadFactory factory = body -> {
            Thread t = new Thread(body, "unnamed");
            made.add(t);
            return t;
        };
        closeLater(q.consume(
                d -> handledOn.put(d.payload(), Thread.currentThread()),
                quickOptionsBuilder(2, Duration.ZERO).threadFactory(factory).build()));

        q.sendAll(List.of("a", "b", "c"));

        await().untilAsserted(() -> assertThat(handledOn).containsOnlyKeys("a", "b", "c"));
        assertThat(made).hasSize(2);
        assertThat(handledOn.values()).allSatisfy(t -> {
            assertThat(made).contains(t);
            assertThat(t.getName()).startsWith("queuekit-" + q.name() + "-consumer-");
            assertThat(t.isDaemon()).isTrue();
        });
    }

    @Test
    default void closingTheSubscription_stopsTheWorkers() throws Exception {
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
}

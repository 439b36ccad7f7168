package io.queuekit.it;

import static org.awaitility.Awaitility.await;

import io.queuekit.ConsumeOptions;
import io.queuekit.DelayQueue;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.Subscription;
import io.queuekit.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Payloads {@code m0 .. m<n-1>} through a queue while a test breaks Redis under it: one producer
 * sending in batches (a batch that fails is sent again, as a caller of an at-least-once queue
 * does, so it may be stored twice), managed consumers counting what they receive, and the tallies
 * a test asserts and prints. On a delay queue every other batch is due a little later, so some
 * messages wait across whatever the test does.
 */
final class Traffic implements AutoCloseable {
    private static final Duration GIVE_UP = Duration.ofSeconds(30);

    final int messages;
    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    /** When each send was acknowledged ({@link System#nanoTime()}). */
    final Map<String, Long> acknowledgedAt = new ConcurrentHashMap<>();

    final Map<String, AtomicInteger> byPayload = new ConcurrentHashMap<>();
    final Map<String, Set<MessageId>> idsByPayload = new ConcurrentHashMap<>();
    final Map<MessageId, AtomicInteger> byId = new ConcurrentHashMap<>();
    final AtomicLong lastDeliveryNanos = new AtomicLong();
    final AtomicLong lastSendFailureNanos = new AtomicLong();
    final AtomicInteger sendFailures = new AtomicInteger();
    final List<TransportException> sendErrors = new CopyOnWriteArrayList<>();
    final List<Integer> gaveUp = new CopyOnWriteArrayList<>();
    /** What ended the producer other than a {@link TransportException}: a queue's bug. */
    final List<RuntimeException> producerCrashes = new CopyOnWriteArrayList<>();

    private final MessageQueue<String> queue;
    private final int batch;
    private final Duration later;
    private final Thread producer;
    private final Subscription consumers;

    private Traffic(MessageQueue<String> queue, int messages, int batch, Duration later, ConsumeOptions options) {
        this.queue = queue;
        this.messages = messages;
        this.batch = batch;
        this.later = later;
        this.consumers = queue.consume(
                d -> {
                    lastDeliveryNanos.set(System.nanoTime());
                    byId.computeIfAbsent(d.id(), k -> new AtomicInteger()).incrementAndGet();
                    byPayload
                            .computeIfAbsent(d.payload(), k -> new AtomicInteger())
                            .incrementAndGet();
                    idsByPayload
                            .computeIfAbsent(d.payload(), k -> ConcurrentHashMap.newKeySet())
                            .add(d.id());
                },
                options);
        this.producer = new Thread(this::produce, "traffic-producer");
        producer.setDaemon(true);
        producer.start();
    }

    /**
     * Starts consumers with {@code options} and a producer of {@code messages} payloads in batches
     * of {@code batch}; on a {@link DelayQueue}, every other batch is due after {@code later}.
     */
    static Traffic start(MessageQueue<String> queue, int messages, int batch, Duration later, ConsumeOptions options) {
        return new Traffic(queue, messages, batch, later, options);
    }

    /** Waits until {@code n} sends were acknowledged and something was received. */
    void awaitAcknowledged(int n, Duration timeout) {
        await().atMost(timeout)
                .pollInterval(Duration.ofMillis(5))
                .until(() -> acknowledged.size() >= n && !byPayload.isEmpty());
    }

    /** Waits for the producer to finish (every batch acknowledged or given up on). */
    boolean awaitProducer(Duration timeout) throws InterruptedException {
        producer.join(timeout.toMillis());
        return !producer.isAlive();
    }

    /** Waits until every acknowledged payload was received; false if some never came. */
    boolean awaitEveryAcknowledgedReceived(Duration timeout) {
        try {
            await().atMost(timeout)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> byPayload.keySet().containsAll(acknowledged));
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    /** Acknowledged payloads never received. */
    Set<String> lost() {
        Set<String> lost = ConcurrentHashMap.newKeySet();
        for (String p : acknowledged) {
            if (!byPayload.containsKey(p)) {
                lost.add(p);
            }
        }
        return lost;
    }

    /** Acknowledged payloads never received whose send returned after {@code nanos}. */
    Set<String> lostAfter(long nanos) {
        Set<String> lost = lost();
        lost.removeIf(p -> acknowledgedAt.get(p) - nanos < 0);
        return lost;
    }

    long deliveries() {
        return byId.values().stream().mapToLong(AtomicInteger::get).sum();
    }

    /** Deliveries of an id after its first. */
    long redeliveries() {
        return byId.values().stream()
                .filter(c -> c.get() > 1)
                .mapToLong(c -> c.get() - 1)
                .sum();
    }

    /** Payloads stored under two ids or more: a retried send whose first try had stored them. */
    long storedTwice() {
        return idsByPayload.values().stream().filter(ids -> ids.size() > 1).count();
    }

    /** Milliseconds from {@code eventNanos} to the last send that failed; 0 if none failed after it. */
    long sendsFailedForMillis(long eventNanos) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(lastSendFailureNanos.get() - eventNanos));
    }

    /** One line for the test's output. */
    String summary() {
        return String.format(
                "%d acknowledged sends of %d, %d sends failed and were retried, %d deliveries of %d ids: "
                        + "%d redeliveries of an id, %d payloads stored twice by a retried send; lost: %d",
                acknowledged.size(),
                messages,
                sendFailures.get(),
                deliveries(),
                byId.size(),
                redeliveries(),
                storedTwice(),
                lost().size());
    }

    private void produce() {
        for (int from = 0; from < messages; from += batch) {
            List<String> payloads = new ArrayList<>(batch);
            for (int i = from; i < Math.min(messages, from + batch); i++) {
                payloads.add("m" + i);
            }
            long deadline = System.nanoTime() + GIVE_UP.toNanos();
            while (true) {
                try {
                    if (queue instanceof DelayQueue<String> d && (from / batch) % 2 == 1) {
                        d.scheduleAll(payloads, later);
                    } else {
                        queue.sendAll(payloads);
                    }
                    long now = System.nanoTime();
                    payloads.forEach(p -> acknowledgedAt.put(p, now));
                    acknowledged.addAll(payloads);
                    break;
                } catch (RuntimeException e) {
                    if (!(e instanceof TransportException)) {
                        producerCrashes.add(e);
                        return;
                    }
                    sendFailures.incrementAndGet();
                    sendErrors.add((TransportException) e);
                    lastSendFailureNanos.set(System.nanoTime());
                    if (System.nanoTime() - deadline > 0) {
                        gaveUp.add(from);
                        break;
                    }
                    try {
                        Thread.sleep(20); // a caller's backoff before it sends again
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }
    }

    /** Stops the consumers and the producer. */
    @Override
    public void close() {
        producer.interrupt();
        consumers.close();
    }
}

package io.queuekit.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.queuekit.ConsumeOptions;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.Scheduled;
import io.queuekit.Semantics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.assertj.core.api.SoftAssertions;

/**
 * Bad input at every entry point of the SPI, each with the answer it must get: nulls, zero,
 * negative and overflowing durations and sizes, instants too far ahead, closed queues and
 * broadcasters, interrupted threads. Each call must fail with a clear exception (the JDK's
 * {@code NullPointerException} or {@code IllegalArgumentException}, {@link QueueClosedException},
 * {@link InterruptedException}) whose message names what was wrong, and must leave the stored
 * messages as they were.
 *
 * <p>The contract runs every case on every transport (its parts {@code BadInputContract},
 * {@code DelayBadInputContract}, {@code BroadcastBadInputContract}), comparing the queue's stats
 * before and after. A transport's own tests may run the cases again with a closer look at its
 * storage (the Redis transports compare a {@code DUMP} of every key of the queue), and add the
 * cases only its builder or its own methods have.
 */
public final class BadInputCatalogue {
    /** A duration no clock can add to an instant. */
    public static final Duration OVERFLOW = Duration.ofSeconds(Long.MAX_VALUE);
    /** The payloads {@link SeededQueue#seed} sends; one of them stays ready. */
    public static final List<String> SEEDED = List.of("a", "b", "c");
    /** What {@link SeededQueue#seed} schedules on a delay queue, an hour ahead. */
    public static final String SCHEDULED = "later";
    /** The headers the cases that send with headers give, valid in themselves. */
    public static final Headers HEADERS = Headers.of("tenant", "acme");

    private BadInputCatalogue() {}

    // ------------------------------------------------------------------------------------------
    // queues

    /**
     * A queue with something in each state, for a case to aim at: of the three messages sent, one
     * in flight ({@link #inFlight}), one in flight too, one {@link #ready}, and on a delay queue
     * {@value BadInputCatalogue#SCHEDULED} delayed; and a closed queue of the same name
     * ({@link #closed}), whose delivery {@link #heldByClosed} was handed out before it closed. On a
     * server the closed queue shares the open one's messages and had handed out the second message
     * in flight; in memory it has messages of its own.
     *
     * @param ready the payload of the one message left ready
     * @param now the transport's time when seeded, for cases that name instants
     */
    public record SeededQueue(
            MessageQueue<String> queue,
            Delivery<String> inFlight,
            MessageQueue<String> closed,
            Delivery<String> heldByClosed,
            String ready,
            Instant now) {

        public SeededQueue {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(inFlight, "inFlight");
            Objects.requireNonNull(closed, "closed");
            Objects.requireNonNull(heldByClosed, "heldByClosed");
            Objects.requireNonNull(ready, "ready");
            Objects.requireNonNull(now, "now");
        }

        /**
         * Seeds {@code queue}, and closes {@code twin}, a second queue of the same name, after
         * taking a delivery from it: one of the queue's if it shares the queue's messages, else
         * one sent to it. An at-most-once queue keeps no message in flight: the two handed out are
         * then gone.
         */
        public static SeededQueue seed(MessageQueue<String> queue, MessageQueue<String> twin, Instant now)
                throws InterruptedException {
            queue.sendAll(SEEDED);
            List<String> ready = new ArrayList<>(SEEDED);
            Delivery<String> inFlight = Tck.next(queue);
            ready.remove(inFlight.payload());
            Delivery<String> held = twin.poll();
            if (held != null) {
                ready.remove(held.payload());
            } else { // a queue of its own: the open queue hands out the second message instead
                ready.remove(Tck.next(queue).payload());
                twin.send("held");
                held = Tck.next(twin);
            }
            twin.close();
            if (queue instanceof DelayQueue<String> d) {
                d.schedule(SCHEDULED, Duration.ofHours(1));
            }
            assertThat(ready).as("sent %s, handed out two", SEEDED).hasSize(1);
            return new SeededQueue(queue, inFlight, twin, held, ready.get(0), now);
        }

        /** The queue as a delay queue; only for cases that apply to delay queues. */
        public DelayQueue<String> delays() {
            return (DelayQueue<String>) queue;
        }

        /** The closed queue as a delay queue; only for cases that apply to delay queues. */
        public DelayQueue<String> closedDelays() {
            return (DelayQueue<String>) closed;
        }
    }

    /** A call on a seeded queue that must be refused. */
    @FunctionalInterface
    public interface QueueCall {
        void run(SeededQueue f) throws Exception;
    }

    /**
     * A case: {@code call} must throw {@code expected}, with a message that mentions
     * {@code mentions} (ignoring case) unless that is null, on every queue whose semantics
     * {@code appliesTo} accepts.
     */
    public record QueueCase(
            String name,
            Predicate<Semantics> appliesTo,
            Class<? extends Throwable> expected,
            String mentions,
            QueueCall call) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static QueueCase q(String name, Class<? extends Throwable> expected, String mentions, QueueCall call) {
        return new QueueCase(name, s -> true, expected, mentions, call);
    }

    private static QueueCase delay(String name, Class<? extends Throwable> expected, String mentions, QueueCall call) {
        return new QueueCase(name, Semantics::delays, expected, mentions, call);
    }

    private static QueueCase interrupted(String name, QueueCall call) {
        return q(name, InterruptedException.class, null, f -> {
            Thread.currentThread().interrupt();
            try {
                call.run(f);
            } finally {
                Thread.interrupted();
            }
        });
    }

    /** The cases every queue must refuse. */
    public static List<QueueCase> queueCases() {
        Class<NullPointerException> npe = NullPointerException.class;
        Class<IllegalArgumentException> iae = IllegalArgumentException.class;
        Class<QueueClosedException> closed = QueueClosedException.class;
        return List.of(
                // payloads
                q("send(null)", npe, "payload", f -> f.queue().send(null)),
                q("sendAll(null)", npe, "payloads", f -> f.queue().sendAll(null)),
                q(
                        "sendAll([ok, null]) stores neither",
                        npe,
                        "index 1",
                        f -> f.queue().sendAll(Arrays.asList("ok", null))),
                // headers
                q("send(p, null headers)", npe, "headers", f -> f.queue().send("p", null)),
                q("send(null, headers)", npe, "payload", f -> f.queue().send(null, HEADERS)),
                // receiving
                q("poll(-1 s)", iae, "timeout", f -> f.queue().poll(-1, TimeUnit.SECONDS)),
                q("poll(Long.MIN_VALUE ns)", iae, "timeout", f -> f.queue().poll(Long.MIN_VALUE, TimeUnit.NANOSECONDS)),
                q("poll(1, null unit)", npe, "unit", f -> f.queue().poll(1, null)),
                q("pollBatch(0, ...)", iae, "maxMessages", f -> f.queue().pollBatch(0, 1, TimeUnit.SECONDS)),
                q("pollBatch(-1, ...)", iae, "maxMessages", f -> f.queue().pollBatch(-1, 1, TimeUnit.SECONDS)),
                q(
                        "pollBatch(Integer.MIN_VALUE, ...)",
                        iae,
                        "maxMessages",
                        f -> f.queue().pollBatch(Integer.MIN_VALUE, 1, TimeUnit.SECONDS)),
                q("pollBatch(10, -1 s)", iae, "timeout", f -> f.queue().pollBatch(10, -1, TimeUnit.SECONDS)),
                q("pollBatch(10, 1, null unit)", npe, "unit", f -> f.queue().pollBatch(10, 1, null)),
                interrupted("poll(1 s) on an interrupted thread", f -> f.queue().poll(1, TimeUnit.SECONDS)),
                interrupted(
                        "poll(Long.MAX_VALUE days) on an interrupted thread",
                        f -> f.queue().poll(Long.MAX_VALUE, TimeUnit.DAYS)),
                interrupted("take() on an interrupted thread", f -> f.queue().take()),
                interrupted(
                        "pollBatch(10, 1 s) on an interrupted thread",
                        f -> f.queue().pollBatch(10, 1, TimeUnit.SECONDS)),
                q("consume(null handler)", npe, "handler", f -> f.queue().consume(null, ConsumeOptions.defaults())),
                q(
                        "consume(handler, null options)",
                        npe,
                        "options",
                        f -> f.queue().consume(d -> {}, null)),
                // settling
                q("retry(null)", npe, "delay", f -> f.inFlight().retry(null)),
                q("retry(-1 ms)", iae, "negative", f -> f.inFlight().retry(Duration.ofMillis(-1))),
                q("retry(overflowing duration)", iae, "delay", f -> f.inFlight().retry(OVERFLOW)),
                // dead letters
                q(
                        "deadLetters().list(0)",
                        iae,
                        "limit",
                        f -> f.queue().deadLetters().list(0)),
                q(
                        "deadLetters().list(-1)",
                        iae,
                        "limit",
                        f -> f.queue().deadLetters().list(-1)),
                q(
                        "deadLetters().requeue(null)",
                        npe,
                        "id",
                        f -> f.queue().deadLetters().requeue(null)),
                // closed queues
                q("send on a closed queue", closed, "closed", f -> f.closed().send("x")),
                q(
                        "send with headers on a closed queue",
                        closed,
                        "closed",
                        f -> f.closed().send("x", HEADERS)),
                q("sendAll on a closed queue", closed, "closed", f -> f.closed().sendAll(List.of("x"))),
                q("poll() on a closed queue", closed, "closed", f -> f.closed().poll()),
                q(
                        "poll(1 s) on a closed queue",
                        closed,
                        "closed",
                        f -> f.closed().poll(1, TimeUnit.SECONDS)),
                q("take() on a closed queue", closed, "closed", f -> f.closed().take()),
                q(
                        "pollBatch on a closed queue",
                        closed,
                        "closed",
                        f -> f.closed().pollBatch(5, 1, TimeUnit.SECONDS)),
                q("consume on a closed queue", closed, "closed", f -> f.closed().consume(d -> {})),
                q("stats() on a closed queue", closed, "closed", f -> f.closed().stats()),
                q(
                        "deadLetters() on a closed queue",
                        closed,
                        "closed",
                        f -> f.closed().deadLetters().size()),
                q(
                        "ack() of a delivery of a closed queue",
                        closed,
                        "closed",
                        f -> f.heldByClosed().ack()),
                q(
                        "retry() of a delivery of a closed queue",
                        closed,
                        "closed",
                        f -> f.heldByClosed().retry(Duration.ZERO)),
                q(
                        "deadLetter() of a delivery of a closed queue",
                        closed,
                        "closed",
                        f -> f.heldByClosed().deadLetter("x")));
    }

    /** The cases every delay queue must refuse, besides {@link #queueCases()}. */
    public static List<QueueCase> delayQueueCases() {
        Class<NullPointerException> npe = NullPointerException.class;
        Class<IllegalArgumentException> iae = IllegalArgumentException.class;
        Class<QueueClosedException> closed = QueueClosedException.class;
        return List.of(
                delay(
                        "schedule on a closed queue",
                        closed,
                        "closed",
                        f -> f.closedDelays().schedule("x", Duration.ZERO)),
                delay(
                        "cancel on a closed queue",
                        closed,
                        "closed",
                        f -> f.closedDelays().cancel(MessageId.of("x"))),
                delay("schedule(null, 1 s)", npe, "payload", f -> f.delays().schedule(null, Duration.ofSeconds(1))),
                delay("schedule(p, null)", npe, "delay", f -> f.delays().schedule("p", null)),
                delay("schedule(p, -1 ms)", iae, "delay", f -> f.delays().schedule("p", Duration.ofMillis(-1))),
                delay(
                        "schedule(p, MAX_DELAY + 1 day)",
                        iae,
                        "delay",
                        f -> f.delays().schedule("p", DelayQueue.MAX_DELAY.plusDays(1))),
                delay(
                        "schedule(p, overflowing duration)",
                        iae,
                        "delay",
                        f -> f.delays().schedule("p", OVERFLOW)),
                delay("scheduleAt(p, null)", npe, "dueAt", f -> f.delays().scheduleAt("p", null)),
                delay(
                        "scheduleAt(p, Instant.MAX)",
                        iae,
                        "due time",
                        f -> f.delays().scheduleAt("p", Instant.MAX)),
                delay(
                        "scheduleAt(p, 11 years ahead)",
                        iae,
                        "due time",
                        f -> f.delays().scheduleAt("p", f.now().plus(Duration.ofDays(11 * 366)))),
                delay(
                        "schedule(null id, p, 1 s)",
                        npe,
                        "id",
                        f -> f.delays().schedule(null, "p", Duration.ofSeconds(1))),
                delay(
                        "schedule(id, p, -1 s)",
                        iae,
                        "delay",
                        f -> f.delays().schedule(MessageId.of("k1"), "p", Duration.ofSeconds(-1))),
                delay(
                        "scheduleAt(id, p, Instant.MAX)",
                        iae,
                        "due time",
                        f -> f.delays().scheduleAt(MessageId.of("k1"), "p", Instant.MAX)),
                delay(
                        "scheduleAt(id, null, now)",
                        npe,
                        "payload",
                        f -> f.delays().scheduleAt(MessageId.of("k1"), null, f.now())),
                delay("cancel(null)", npe, "id", f -> f.delays().cancel(null)),
                // headers
                delay(
                        "schedule with headers on a closed queue",
                        closed,
                        "closed",
                        f -> f.closedDelays().schedule("x", HEADERS, Duration.ZERO)),
                delay(
                        "schedule(p, null headers, 1 s)",
                        npe,
                        "headers",
                        f -> f.delays().schedule("p", null, Duration.ofSeconds(1))),
                delay(
                        "schedule(null, headers, 1 s)",
                        npe,
                        "payload",
                        f -> f.delays().schedule(null, HEADERS, Duration.ofSeconds(1))),
                delay(
                        "schedule(p, headers, -1 ms)",
                        iae,
                        "delay",
                        f -> f.delays().schedule("p", HEADERS, Duration.ofMillis(-1))),
                delay(
                        "scheduleAt(p, null headers, now)",
                        npe,
                        "headers",
                        f -> f.delays().scheduleAt("p", null, f.now())),
                delay(
                        "scheduleAt(p, headers, Instant.MAX)",
                        iae,
                        "due time",
                        f -> f.delays().scheduleAt("p", HEADERS, Instant.MAX)),
                delay(
                        "schedule(id, p, null headers, 1 s)",
                        npe,
                        "headers",
                        f -> f.delays().schedule(MessageId.of("k1"), "p", null, Duration.ofSeconds(1))),
                delay(
                        "scheduleAt(id, p, null headers, now)",
                        npe,
                        "headers",
                        f -> f.delays().scheduleAt(MessageId.of("k1"), "p", null, f.now())),
                delay(
                        "scheduleAt(id, p, headers, Instant.MAX)",
                        iae,
                        "due time",
                        f -> f.delays().scheduleAt(MessageId.of("k1"), "p", HEADERS, Instant.MAX)),
                // batches
                delay(
                        "scheduleAll on a closed queue",
                        closed,
                        "closed",
                        f -> f.closedDelays().scheduleAll(List.of("x"), Duration.ZERO)),
                delay(
                        "scheduleAll(null, 1 s)",
                        npe,
                        "payloads",
                        f -> f.delays().scheduleAll(null, Duration.ofSeconds(1))),
                delay(
                        "scheduleAll([ok, null], 1 s) stores neither",
                        npe,
                        "index 1",
                        f -> f.delays().scheduleAll(Arrays.asList("ok", null), Duration.ofSeconds(1))),
                delay("scheduleAll([ok], null)", npe, "delay", f -> f.delays().scheduleAll(List.of("ok"), null)),
                delay(
                        "scheduleAll([ok], -1 ms)",
                        iae,
                        "delay",
                        f -> f.delays().scheduleAll(List.of("ok"), Duration.ofMillis(-1))),
                delay(
                        "scheduleAll([ok], overflowing duration)",
                        iae,
                        "delay",
                        f -> f.delays().scheduleAll(List.of("ok"), OVERFLOW)),
                delay("scheduleAllAt([ok], null)", npe, "dueAt", f -> f.delays().scheduleAllAt(List.of("ok"), null)),
                delay(
                        "scheduleAllAt([ok], Instant.MAX)",
                        iae,
                        "due time",
                        f -> f.delays().scheduleAllAt(List.of("ok"), Instant.MAX)),
                delay(
                        "scheduleEach on a closed queue",
                        closed,
                        "closed",
                        f -> f.closedDelays().scheduleEach(List.of(Scheduled.at("x", f.now())))),
                delay("scheduleEach(null)", npe, "messages", f -> f.delays().scheduleEach(null)),
                delay(
                        "scheduleEach([ok, null]) stores neither",
                        npe,
                        "index 1",
                        f -> f.delays().scheduleEach(Arrays.asList(Scheduled.at("ok", f.now()), null))),
                delay(
                        "scheduleEach([ok, Instant.MAX]) stores neither",
                        iae,
                        "index 1",
                        f -> f.delays()
                                .scheduleEach(List.of(Scheduled.at("ok", f.now()), Scheduled.at("p", Instant.MAX)))),
                delay(
                        "scheduleEach([ok, 11 years ahead]) stores neither",
                        iae,
                        "due time",
                        f -> f.delays()
                                .scheduleEach(List.of(
                                        Scheduled.at("ok", f.now()),
                                        Scheduled.at("p", f.now().plus(Duration.ofDays(11 * 366)))))));
    }

    // ------------------------------------------------------------------------------------------
    // answers

    /** Asserts that {@code thrown} is an {@code expected} whose message mentions {@code mentions}. */
    public static void assertRefused(
            String what, Throwable thrown, Class<? extends Throwable> expected, String mentions) {
        SoftAssertions soft = new SoftAssertions();
        refused(soft, what, thrown, expected, mentions);
        soft.assertAll();
    }

    /** The same, collected in {@code soft}. */
    public static void refused(
            SoftAssertions soft, String what, Throwable thrown, Class<? extends Throwable> expected, String mentions) {
        soft.assertThat(thrown).as(what + ": exception").isInstanceOf(expected);
        if (thrown != null && mentions != null && expected.isInstance(thrown)) {
            soft.assertThat(thrown.getMessage())
                    .as(what + ": message of " + thrown)
                    .isNotBlank()
                    .containsIgnoringCase(mentions);
        }
    }

    /**
     * Runs {@code c} on {@code f} and asserts that it was refused clearly, that {@code storage}
     * (the queue's stats, or more) reads as before, and that the ready message is still the one ready.
     */
    public static void assertRefusedLeavingAllAsItWas(QueueCase c, SeededQueue f, Supplier<?> storage) {
        Object before = storage.get();
        Throwable thrown = catchThrowable(() -> c.call().run(f));
        Object after = storage.get();
        SoftAssertions soft = new SoftAssertions();
        refused(soft, c.name(), thrown, c.expected(), c.mentions());
        soft.assertThat(after).as("stored messages after " + c.name()).isEqualTo(before);
        soft.assertThat(drainReady(f.queue()))
                .as("ready messages after " + c.name())
                .containsExactly(f.ready());
        soft.assertAll();
    }

    /** The ready messages' payloads, taken from {@code q} until none is left. */
    public static List<String> drainReady(MessageQueue<String> q) {
        List<String> got = new ArrayList<>();
        for (Delivery<String> d; (d = q.poll()) != null; ) {
            got.add(d.payload());
        }
        return got;
    }
}

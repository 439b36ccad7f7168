package io.queuekit.tck;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.TestInfo;

/** Helpers shared by the parts of the contract. */
final class Tck {
    /**
     * Bound for anything that is expected to happen: long enough never to be hit when it works
     * (10 s). The system property {@code queuekit.tck.patience} (an ISO-8601 duration) changes it,
     * for runs that expect failures, such as checking that the suite catches a broken transport.
     */
    static final Duration GENEROUS = Duration.parse(System.getProperty("queuekit.tck.patience", "PT10S"));

    static final long GENEROUS_MS = GENEROUS.toMillis();

    /** How soon a blocked call must answer an interrupt (Redis transports notice within about 1 s). */
    static final Duration INTERRUPT_BOUND = Duration.ofSeconds(5);

    private Tck() {}

    /** A name unique to this test and run, so tests never share a queue, even on one server. */
    static String uniqueName(TestInfo info) {
        String method = info.getTestMethod().map(Method::getName).orElse("test");
        if (method.length() > 60) {
            method = method.substring(0, 60);
        }
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        return ("tck-" + method + "-" + suffix).toLowerCase(Locale.ROOT);
    }

    static ConditionFactory await() {
        return Awaitility.await().atMost(GENEROUS).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10));
    }

    /**
     * Waits until {@code t} is parked (in a condition wait, or similar), or at most {@code max}.
     * A transport blocked in socket I/O stays RUNNABLE, so the bound is what applies to it.
     */
    static void awaitParked(Thread t, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() - deadline < 0) {
            Thread.State s = t.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING || s == Thread.State.TERMINATED) {
                return;
            }
            Thread.sleep(2);
        }
    }

    /** Whether a live thread's name starts with {@code prefix}. */
    static boolean threadAlive(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().startsWith(prefix));
    }

    /** Starts calls on threads and stops the leftovers after the test. */
    static final class Calls {
        private final List<Call<?>> started = new ArrayList<>();

        synchronized <V> Call<V> start(String what, Callable<V> body) {
            Call<V> c = new Call<>("tck-" + what + "-" + (started.size() + 1), body);
            started.add(c);
            c.start();
            return c;
        }

        synchronized void stopAll() throws InterruptedException {
            for (Call<?> c : started) {
                c.thread().interrupt();
            }
            for (Call<?> c : started) {
                c.thread().join(GENEROUS_MS);
            }
            started.clear();
        }
    }

    // ------------------------------------------------------------------------------------------
    // queues

    static <T> Delivery<T> next(MessageQueue<T> q) throws InterruptedException {
        Delivery<T> d = q.poll(GENEROUS_MS, MILLISECONDS);
        assertThat(d).as("a delivery from %s within %s", q.name(), GENEROUS).isNotNull();
        return d;
    }

    /** Takes and acks {@code n} deliveries; their payloads, in the order they were handed out. */
    static List<String> takeAndAck(MessageQueue<String> q, int n) throws InterruptedException {
        List<String> got = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Delivery<String> d = next(q);
            got.add(d.payload());
            d.ack();
        }
        return got;
    }

    /**
     * Takes and acks as many deliveries as {@code expected} names: each handed out once, and in
     * that order where the queue orders by due time (the rest of the test is skipped where not).
     */
    static void assertHandedOutByDueTime(MessageQueue<String> q, String... expected) throws InterruptedException {
        List<String> got = takeAndAck(q, expected.length);
        assertThat(got).containsExactlyInAnyOrder(expected);
        assumeTrue(q.semantics().ordering() == Semantics.Ordering.DUE_TIME, "not ordered by due time");
        assertThat(got).containsExactly(expected);
    }

    static List<String> payloads(Collection<? extends Delivery<String>> deliveries) {
        return deliveries.stream().map(Delivery::payload).collect(Collectors.toList());
    }

    static boolean inSendOrder(Semantics s) {
        return s.ordering() == Semantics.Ordering.FIFO || s.ordering() == Semantics.Ordering.DUE_TIME;
    }

    /** Skips a test of an order on a transport that promises none. */
    static void assumeOrdered(MessageQueue<?> q) {
        assumeTrue(inSendOrder(q.semantics()), "the transport promises no order: " + q.semantics());
    }

    /** Skips a test of leases and redelivery on an at-most-once transport. */
    static void assumeLeases(MessageQueue<?> q) {
        assumeTrue(q.semantics().redelivers(), "at-most-once: no lease: " + q.semantics());
    }

    /** Skips a test of what at-most-once promises on an at-least-once transport. */
    static void assumeAtMostOnce(MessageQueue<?> q) {
        assumeTrue(!q.semantics().redelivers(), "at-least-once: a lease brings messages back: " + q.semantics());
    }

    static ConsumeOptions quickOptions(int concurrency, Duration backoff) {
        return quickOptionsBuilder(concurrency, backoff).build();
    }

    /** Consumers that notice a stop quickly, and whose close cannot hold up a test for long. */
    static ConsumeOptions.Builder quickOptionsBuilder(int concurrency, Duration backoff) {
        return ConsumeOptions.builder()
                .concurrency(concurrency)
                .backoff(backoff, backoff)
                .pollTimeout(Duration.ofMillis(100))
                .shutdownTimeout(Duration.ofSeconds(5));
    }

    /** Whether {@code q}, which has nothing ready, refuses to hand out messages: it is closing. */
    static boolean receivingRefused(MessageQueue<?> q) {
        try {
            assertThat(q.poll())
                    .as("a queue with nothing ready handed out a message")
                    .isNull();
            return false;
        } catch (QueueClosedException e) {
            return true;
        }
    }

    /** A call expected to throw. */
    @FunctionalInterface
    interface ThrowingCall {
        Object run() throws Exception;
    }

    /** UTF-8, except that it cannot encode "unencodable..." nor decode what "undecodable..." became. */
    static final Codec<String> PICKY = new Codec<>() {
        @Override
        public byte[] encode(String payload) {
            if (payload.startsWith("unencodable")) {
                throw new IllegalStateException("the picky codec cannot encode " + payload);
            }
            return Codec.utf8().encode(payload);
        }

        @Override
        public String decode(byte[] bytes) {
            String s = Codec.utf8().decode(bytes);
            if (s.startsWith("undecodable")) {
                throw new IllegalStateException("the picky codec cannot decode " + s);
            }
            return s;
        }

        @Override
        public String toString() {
            return "the contract's picky codec";
        }
    };

    // ------------------------------------------------------------------------------------------
    // headers

    /**
     * Headers that only come back as given if kept exactly: in no sorted order, names that differ
     * only in case, every character a name may have, non-ASCII text (a character outside the BMP
     * too), an empty value, control characters, and values that read like a stored frame's lengths.
     */
    static final Headers VARIED = Headers.of(varied());

    private static Map<String, String> varied() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("zeta", "first, though last by name");
        m.put("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        m.put("tenant", "Z\u00FCrich \u2013 \u6771\u4EAC \uD83D\uDE80");
        m.put("empty", "");
        m.put("Empty", "case matters");
        m.put("!#$%&'*+-.^_`|~09AZaz", "every character a name may have");
        m.put("control", "line\nbreak\ttab\u0000nul\u202Ebidi");
        m.put("frame-like", "4:name5:value\u0000qkh12:");
        m.put("alpha", "last");
        return m;
    }

    /** The most headers a message may carry ({@link Headers#MAX_COUNT}), of {@link Headers#MAX_BYTES} bytes in all. */
    static Headers atTheLimits() {
        Map<String, String> m = new LinkedHashMap<>();
        int each = Headers.MAX_BYTES / Headers.MAX_COUNT;
        for (int i = Headers.MAX_COUNT; i > 0; i--) { // descending: in no sorted order
            String name = String.format(Locale.ROOT, "h%02d", i);
            m.put(name, "v".repeat(each - name.length()));
        }
        Headers h = Headers.of(m);
        assertThat(h.size()).isEqualTo(Headers.MAX_COUNT);
        assertThat(h.bytes()).isEqualTo(Headers.MAX_BYTES);
        return h;
    }

    /** Asserts that {@code actual} has exactly {@code expected}'s headers, in its order. */
    static void assertSameHeaders(Headers actual, Headers expected, String of) {
        assertThat(actual).as("headers of %s", of).isNotNull();
        assertThat(entries(actual)).as("headers of %s, in order", of).isEqualTo(entries(expected));
        assertThat(actual).isEqualTo(expected);
    }

    private static List<Map.Entry<String, String>> entries(Headers h) {
        return h.asMap().entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue()))
                .collect(Collectors.toList());
    }

    /** {@code headers} with the header {@code name} set last, as an observation's header is added. */
    static Headers plus(Headers headers, String name, String value) {
        return headers.withAll(Headers.of(name, value));
    }

    // ------------------------------------------------------------------------------------------
    // broadcasters

    /** Skips a test of fan-out on a broadcaster that hands each message to one subscriber, or the reverse. */
    static void assumeFanOut(Broadcaster<?> b, boolean fanOut) {
        assumeTrue(b.semantics().fanOut() == fanOut, (fanOut ? "no fan-out: " : "fan-out: ") + b.semantics());
    }

    /** Skips a test of retention on a broadcaster that promises the opposite. */
    static void assumeRetained(Broadcaster<?> b, boolean retained) {
        assumeTrue(
                b.semantics().retainedWithoutConsumers() == retained,
                (retained ? "nothing kept while no one listens: " : "kept while no one listens: ") + b.semantics());
    }

    /** Subscribes a listener that records what it receives. */
    static Recorder record(Broadcaster<String> b) {
        Recorder r = new Recorder();
        r.subscription = b.subscribe(r.received::add);
        return r;
    }

    /**
     * Waits until every subscriber received every message, then, where the broadcaster promises an
     * order (skipped where it promises none), asserts each received them in publish order.
     */
    static void assertEachReceivedAll(Broadcaster<String> b, List<Recorder> subscribers, List<String> sent) {
        await().untilAsserted(() -> {
            for (Recorder r : subscribers) {
                assertThat(r.received).containsExactlyInAnyOrderElementsOf(sent);
            }
        });
        Semantics.Ordering ordering = b.semantics().ordering();
        assumeTrue(
                ordering == Semantics.Ordering.PUBLISH_ORDER || ordering == Semantics.Ordering.FIFO,
                "no order promised: " + b.semantics());
        for (Recorder r : subscribers) {
            assertThat(r.received).containsExactlyElementsOf(sent);
        }
    }

    /** Whether the broadcaster promises every subscriber all its messages in one order (publish order). */
    static boolean ordersAll(Broadcaster<?> b) {
        Semantics.Ordering ordering = b.semantics().ordering();
        return ordering == Semantics.Ordering.PUBLISH_ORDER || ordering == Semantics.Ordering.FIFO;
    }

    static final class Recorder {
        final List<String> received = new CopyOnWriteArrayList<>();
        Subscription subscription;
    }

    static List<String> messages(int n) {
        return IntStream.range(0, n).mapToObj(i -> "m" + i).collect(Collectors.toList());
    }
}

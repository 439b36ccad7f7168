package io.queuekit.inmemory;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.MessageId;
import io.queuekit.Position;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What is specific to the in-memory topic: its semantics values, retention by length, ids and
 * positions, replays, deleted groups, closing, virtual time and failure counts.
 */
@Timeout(20)
class InMemoryTopicTest {
    private final ManualClock clock = new ManualClock();
    private final List<AutoCloseable> created = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : created) {
            c.close();
        }
    }

    private InMemoryTopic<String> topic(InMemoryTopic.Builder<String> builder) {
        InMemoryTopic<String> t = builder.build();
        created.add(t);
        return t;
    }

    private InMemoryTopic<String> topic() {
        return topic(InMemoryTopic.<String>builder("orders").clock(clock));
    }

    private static List<String> takeAndAck(ConsumerGroup<String> g, int n) throws InterruptedException {
        List<String> got = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Delivery<String> d = g.poll(5, SECONDS);
            assertThat(d).as("delivery %s of %s", i + 1, n).isNotNull();
            got.add(d.payload());
            d.ack();
        }
        return got;
    }

    @Test
    void semantics_areThoseOfTheRedisStreamTopic() {
        InMemoryTopic<String> t = topic();
        assertThat(t.semantics())
                .isEqualTo(new Semantics(
                        "in-memory",
                        Semantics.Guarantee.AT_LEAST_ONCE,
                        Semantics.Ordering.PUBLISH_ORDER,
                        true,
                        true,
                        false));
        assertThat(t.group("g").semantics())
                .isEqualTo(new Semantics(
                        "in-memory", Semantics.Guarantee.AT_LEAST_ONCE, Semantics.Ordering.FIFO, true, false, false));
    }

    @Test
    void ids_areGenerated_atSignAndSequence_publishTimeFromTheClock() throws Exception {
        InMemoryTopic<String> t = topic();
        ConsumerGroup<String> g = t.group("g");

        MessageId first = g.send("one");
        clock.advance(Duration.ofSeconds(5));
        MessageId second = g.send("two");

        assertThat(first).isEqualTo(MessageId.of("@1"));
        assertThat(second).isEqualTo(MessageId.of("@2"));
        assertThat(first.isGenerated()).isTrue();
        Delivery<String> d = g.poll();
        assertThat(d.enqueuedAt()).isEqualTo(clock.instant().minusSeconds(5));
        d.ack();
        assertThat(g.poll().enqueuedAt()).isEqualTo(clock.instant());
    }

    @Test
    void position_atATime_readsTheTopicsClock() throws Exception {
        InMemoryTopic<String> t = topic();
        t.publish("before");
        clock.advance(Duration.ofMillis(1));
        Instant from = clock.instant();
        t.publish("at");
        clock.advance(Duration.ofMillis(1));
        t.publish("after");

        ConsumerGroup<String> g = t.group("g", Position.at(from));

        assertThat(takeAndAck(g, 2)).containsExactly("at", "after");
        assertThat(g.poll()).isNull();
    }

    @Test
    void position_afterAnIdNoTopicGives_isRefused_andCreatesNothing() {
        InMemoryTopic<String> t = topic();

        assertThatThrownBy(() -> t.group("g", Position.after(MessageId.of("order-17"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("order-17");
        assertThat(t.groups()).isEmpty();
    }

    @Test
    void maxLength_dropsWhatEveryGroupAcked_neverWhatOneHasNot() throws Exception {
        InMemoryTopic<String> t =
                topic(InMemoryTopic.<String>builder("orders").clock(clock).maxLength(2));
        ConsumerGroup<String> fast = t.group("fast");
        ConsumerGroup<String> slow = t.group("slow");
        List<String> sent = List.of("m1", "m2", "m3", "m4", "m5");
        sent.forEach(t::publish);
        assertThat(takeAndAck(fast, 5)).containsExactlyElementsOf(sent);

        assertThat(t.size()).as("slow has acked none: all kept").isEqualTo(5);
        assertThat(takeAndAck(slow, 3)).containsExactly("m1", "m2", "m3");
        t.publish("m6");

        assertThat(t.size()).as("m1 to m3 acked by both and beyond the length").isEqualTo(3);
        ConsumerGroup<String> late = t.group("late", Position.beginning());
        assertThat(takeAndAck(late, 3)).containsExactly("m4", "m5", "m6");
        assertThat(takeAndAck(slow, 3)).containsExactly("m4", "m5", "m6");
    }

    @Test
    void maxLength_isNotHeldBackBySubscriptions() {
        InMemoryTopic<String> t =
                topic(InMemoryTopic.<String>builder("orders").clock(clock).maxLength(1));
        List<String> heard = new CopyOnWriteArrayList<>();
        CountDownLatch hold = new CountDownLatch(1);
        created.add(t.subscribe(m -> {
            heard.add(m);
            hold.await();
        }));

        t.publish("m1");
        t.publish("m2");
        t.publish("m3");

        assertThat(t.size()).isEqualTo(1);
        hold.countDown();
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() ->
                        assertThat(heard).as("the subscription's own copies").containsExactly("m1", "m2", "m3"));
    }

    @Test
    void maxLength_mustBePositive() {
        assertThatThrownBy(() -> InMemoryTopic.builder("orders").maxLength(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max length");
    }

    @Test
    void replayFromTheEnd_skipsWhatTheGroupWasNotHanded_andLeavesWhatIsInFlight() throws Exception {
        InMemoryTopic<String> t = topic();
        ConsumerGroup<String> g = t.group("g");
        t.publish("in flight");
        t.publish("skipped");
        Delivery<String> inFlight = g.poll();

        g.replayFrom(Position.end());

        assertThat(g.poll()).isNull();
        assertThat(g.info()).isEqualTo(new GroupInfo("g", 0, 1, 0, 0, false));
        assertThat(inFlight.ack()).isTrue();
        t.publish("next");
        assertThat(takeAndAck(g, 1)).containsExactly("next");
    }

    @Test
    void groupInfo_countsARetryWaiting_asPending() throws Exception {
        InMemoryTopic<String> t = topic();
        ConsumerGroup<String> g = t.group("g");
        t.publish("m");

        assertThat(g.poll().retry(Duration.ofMinutes(1))).isTrue();

        assertThat(g.info()).isEqualTo(new GroupInfo("g", 0, 1, 0, 0, false));
        assertThat(g.poll()).isNull();
        clock.advance(Duration.ofMinutes(1));
        Delivery<String> again = g.poll();
        assertThat(again.attempt()).isEqualTo(2);
    }

    @Test
    void twoObjectsOfOneGroup_shareItsPause_andItsDeadLetters() throws Exception {
        InMemoryTopic<String> t = topic();
        ConsumerGroup<String> a = t.group("g");
        ConsumerGroup<String> b = t.group("g");
        t.publish("m");

        a.pause();

        assertThat(b.isPaused()).isTrue();
        assertThat(b.poll()).isNull();
        b.resume();
        b.poll().deadLetter("no");
        assertThat(a.deadLetters().size()).isEqualTo(1);
    }

    @Test
    void deletedGroup_refusesItsObjects_andWakesTheirBlockedReceivers() throws Exception {
        InMemoryTopic<String> t = topic();
        ConsumerGroup<String> g = t.group("g");
        ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(1);
        try {
            Future<Delivery<String>> waiting = pool.submit(() -> g.poll(30, SECONDS));
            await().atMost(Duration.ofSeconds(5)).until(() -> pool.getActiveCount() == 1);

            assertThat(t.deleteGroup("g")).isTrue();

            assertThatThrownBy(() -> waiting.get(5, SECONDS)).hasCauseInstanceOf(QueueClosedException.class);
        } finally {
            pool.shutdownNow();
        }
        assertThatThrownBy(g::poll).isInstanceOf(QueueClosedException.class).hasMessageContaining("deleted");
        assertThatThrownBy(() -> g.send("m")).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(g::stats).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(g::info).isInstanceOf(QueueClosedException.class);
        assertThat(t.publish("to no group")).isZero();
        assertThat(t.group("g").poll())
                .as("a new group of that name starts at the end")
                .isNull();
    }

    @Test
    void deletingASubscriptionsGroup_endsTheSubscription() {
        InMemoryTopic<String> t = topic();
        Subscription s = t.subscribe(m -> {});
        String name = t.groups().get(0).name();

        assertThat(name).startsWith("~");
        assertThat(t.deleteGroup(name)).isTrue();

        await().atMost(Duration.ofSeconds(5)).until(() -> !s.isActive());
        assertThat(t.publish("m")).isZero();
    }

    @Test
    void close_closesTheGroupObjects_andRefusesEveryCall() throws Exception {
        InMemoryTopic<String> t = topic();
        ConsumerGroup<String> g = t.group("g");

        t.close();

        assertThatThrownBy(g::poll).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> t.publish("m")).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> t.deleteGroup("g")).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(t::size).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> t.group("g", Position.beginning())).isInstanceOf(QueueClosedException.class);
    }

    @Test
    void throwingListener_isCounted_andItsMessageAcked() {
        InMemoryTopic<String> t = topic();
        List<String> heard = new CopyOnWriteArrayList<>();
        created.add(t.subscribe(m -> {
            heard.add(m);
            throw new IllegalStateException("fails on purpose");
        }));

        t.publish("a");
        t.publish("b");

        await().atMost(Duration.ofSeconds(5)).until(() -> t.listenerFailures() == 2);
        assertThat(heard).containsExactly("a", "b");
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(t.groups().get(0).pending()).isZero());
    }

    @Test
    void aListenerRunningPastItsLease_getsItsMessageOnce() throws Exception {
        InMemoryTopic<String> t = topic();
        List<String> heard = new CopyOnWriteArrayList<>();
        CountDownLatch inListener = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        created.add(t.subscribe(m -> {
            heard.add(m);
            inListener.countDown();
            release.await(10, SECONDS);
        }));
        t.publish("long");
        assertThat(inListener.await(5, SECONDS)).isTrue();

        clock.advance(Duration.ofMinutes(5)); // ten visibility timeouts while the listener runs
        release.countDown();
        t.publish("next");

        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(heard).containsExactly("long", "next"));
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(t.groups().get(0).pending()).isZero());
        assertThat(heard).containsExactly("long", "next");
    }

    @Test
    void withACodec_aGroupGetsAPayloadTheCodecMade_notTheObjectPublished() throws Exception {
        InMemoryTopic<StringBuilder> t = InMemoryTopic.<StringBuilder>builder("orders")
                .codec(new Codec<>() {
                    @Override
                    public byte[] encode(StringBuilder payload) {
                        return Codec.utf8().encode(payload.toString());
                    }

                    @Override
                    public StringBuilder decode(byte[] bytes) {
                        return new StringBuilder(Codec.utf8().decode(bytes));
                    }
                })
                .build();
        created.add(t);
        ConsumerGroup<StringBuilder> g = t.group("g");
        StringBuilder sent = new StringBuilder("m");

        t.publish(sent);
        sent.append(" changed after publishing");

        Delivery<StringBuilder> d = g.poll();
        assertThat(d.payload().toString()).isEqualTo("m");
        assertThat(d.payload()).isNotSameAs(sent);
    }
}

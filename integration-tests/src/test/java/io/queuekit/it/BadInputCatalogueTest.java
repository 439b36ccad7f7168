package io.queuekit.it;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.inmemory.InMemoryBroadcaster;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.RedisClient;

/**
 * Bad input at every public entry point of every transport (the list queue in both modes, the
 * delay queue, pub/sub, and the in-memory stand-ins): nulls, oversize payloads, invalid names
 * (braces would break the hash tag), zero, negative and overflowing durations, instants too far
 * ahead, closed queues, interrupted threads. Each call must fail with a clear exception (the JDK's
 * {@code NullPointerException} or {@code IllegalArgumentException}, {@link QueueClosedException},
 * {@link InterruptedException}) whose message names what was wrong, and must leave the stored
 * messages exactly as they were: the queue's stats, and for Redis a {@code DUMP} of every key of
 * the queue, are compared before and after. Accepted edge cases (empty payloads, instants far in
 * the past, timeouts that overflow) are checked to work.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@RedisServerTest(server = PER_CLASS)
class BadInputCatalogueTest {
    private static final String OVERSIZE = "x".repeat(2000);
    private static final Duration OVERFLOW = Duration.ofSeconds(Long.MAX_VALUE);
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static RedisClient client;

    @BeforeAll
    static void connect(RedisClient redis) {
        client = redis;
    }

    // ------------------------------------------------------------------------------------------
    // queues

    /** A seeded queue: "a" in flight, "b" in flight on another instance that was then closed, "c" ready. */
    static final class Fixture implements AutoCloseable {
        final Kind kind;
        final String name;
        final MessageQueue<String> queue;
        final Delivery<String> inFlight;
        final MessageQueue<String> closed;
        final Delivery<String> heldByClosed;

        Fixture(Kind kind) {
            this.kind = kind;
            this.name = "bad-" + NAMES.incrementAndGet();
            if (kind.redis()) {
                this.queue = kind.queue(client, name);
                this.closed = kind.queue(client, name);
            } else {
                this.queue = kind.queue(null, name);
                this.closed = queue;
            }
            queue.sendAll(List.of("a", "b", "c"));
            this.inFlight = queue.poll();
            if (kind.redis()) {
                this.heldByClosed = closed.poll();
                closed.close();
            } else {
                // an in-memory queue is its own storage: its closed twin is a closed queue of the same kind
                queue.poll();
                this.heldByClosed = null;
            }
            if (queue instanceof DelayQueue<String> d) {
                d.schedule("later", Duration.ofHours(1));
            }
        }

        MessageQueue<String> closedQueue() {
            if (kind.redis()) {
                return closed;
            }
            MessageQueue<String> q = kind.queue(null, name + "-closed");
            q.close();
            return q;
        }

        /** Stats, dead letters and, for Redis, every key of the queue as DUMP bytes. */
        Map<String, String> snapshot() {
            Map<String, String> s = new TreeMap<>();
            QueueStats stats = queue.stats();
            s.put("stats", stats.toString());
            if (kind.redis()) {
                for (String key : client.keys("queuekit:{" + name + "}*")) {
                    s.put(key, Base64.getEncoder().encodeToString(client.dump(key)));
                }
            }
            return s;
        }

        @Override
        public void close() {
            queue.close();
        }
    }

    @FunctionalInterface
    interface QueueCall {
        void run(Fixture f) throws Exception;
    }

    record QueueCase(String name, Predicate<Kind> appliesTo, Class<? extends Throwable> expected, String mentions,
            QueueCall call) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static QueueCase q(String name, Class<? extends Throwable> expected, String mentions, QueueCall call) {
        return new QueueCase(name, k -> true, expected, mentions, call);
    }

    private static QueueCase delay(String name, Class<? extends Throwable> expected, String mentions, QueueCall call) {
        return new QueueCase(name, Kind::delays, expected, mentions, call);
    }

    private static QueueCase zset(String name, Class<? extends Throwable> expected, String mentions, QueueCall call) {
        return new QueueCase(name, k -> k == Kind.REDIS_ZSET, expected, mentions, call);
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

    @SuppressWarnings("unchecked")
    private static DelayQueue<String> d(Fixture f) {
        return (DelayQueue<String>) f.queue;
    }

    static List<QueueCase> queueCases() {
        Class<NullPointerException> npe = NullPointerException.class;
        Class<IllegalArgumentException> iae = IllegalArgumentException.class;
        Class<QueueClosedException> closed = QueueClosedException.class;
        Instant elevenYears = Instant.now().plus(Duration.ofDays(11 * 366));
        return List.of(
                // payloads
                q("send(null)", npe, "payload", f -> f.queue.send(null)),
                q("send(oversize)", iae, "2000", f -> f.queue.send(OVERSIZE)),
                q("send(one byte over the limit)", iae, "1024", f -> f.queue.send("y".repeat(Kind.MAX_PAYLOAD + 1))),
                q("sendAll(null)", npe, "payloads", f -> f.queue.sendAll(null)),
                q("sendAll([ok, null]) stores neither", npe, "index 1", f -> f.queue.sendAll(Arrays.asList("ok", null))),
                q("sendAll([ok, oversize]) stores neither", iae, "2000", f -> f.queue.sendAll(List.of("ok", OVERSIZE))),
                // receiving
                q("poll(-1 s)", iae, "timeout", f -> f.queue.poll(-1, TimeUnit.SECONDS)),
                q("poll(Long.MIN_VALUE ns)", iae, "timeout", f -> f.queue.poll(Long.MIN_VALUE, TimeUnit.NANOSECONDS)),
                q("poll(1, null unit)", npe, "unit", f -> f.queue.poll(1, null)),
                q("pollBatch(0, ...)", iae, "maxMessages", f -> f.queue.pollBatch(0, 1, TimeUnit.SECONDS)),
                q("pollBatch(-1, ...)", iae, "maxMessages", f -> f.queue.pollBatch(-1, 1, TimeUnit.SECONDS)),
                q("pollBatch(Integer.MIN_VALUE, ...)", iae, "maxMessages",
                        f -> f.queue.pollBatch(Integer.MIN_VALUE, 1, TimeUnit.SECONDS)),
                q("pollBatch(10, -1 s)", iae, "timeout", f -> f.queue.pollBatch(10, -1, TimeUnit.SECONDS)),
                q("pollBatch(10, 1, null unit)", npe, "unit", f -> f.queue.pollBatch(10, 1, null)),
                interrupted("poll(1 s) on an interrupted thread", f -> f.queue.poll(1, TimeUnit.SECONDS)),
                interrupted("poll(Long.MAX_VALUE days) on an interrupted thread",
                        f -> f.queue.poll(Long.MAX_VALUE, TimeUnit.DAYS)),
                interrupted("take() on an interrupted thread", f -> f.queue.take()),
                interrupted("pollBatch(10, 1 s) on an interrupted thread", f -> f.queue.pollBatch(10, 1, TimeUnit.SECONDS)),
                q("consume(null handler)", npe, "handler", f -> f.queue.consume(null, ConsumeOptions.defaults())),
                q("consume(handler, null options)", npe, "options", f -> f.queue.consume(d -> { }, null)),
                // settling
                q("retry(null)", npe, "delay", f -> f.inFlight.retry(null)),
                q("retry(-1 ms)", iae, "negative", f -> f.inFlight.retry(Duration.ofMillis(-1))),
                q("retry(overflowing duration)", iae, "delay", f -> f.inFlight.retry(OVERFLOW)),
                // dead letters
                q("deadLetters().list(0)", iae, "limit", f -> f.queue.deadLetters().list(0)),
                q("deadLetters().list(-1)", iae, "limit", f -> f.queue.deadLetters().list(-1)),
                q("deadLetters().requeue(null)", npe, "id", f -> f.queue.deadLetters().requeue(null)),
                // closed queues
                q("send on a closed queue", closed, "closed", f -> f.closedQueue().send("x")),
                q("sendAll on a closed queue", closed, "closed", f -> f.closedQueue().sendAll(List.of("x"))),
                q("poll() on a closed queue", closed, "closed", f -> f.closedQueue().poll()),
                q("poll(1 s) on a closed queue", closed, "closed", f -> f.closedQueue().poll(1, TimeUnit.SECONDS)),
                q("take() on a closed queue", closed, "closed", f -> f.closedQueue().take()),
                q("pollBatch on a closed queue", closed, "closed", f -> f.closedQueue().pollBatch(5, 1, TimeUnit.SECONDS)),
                q("consume on a closed queue", closed, "closed", f -> f.closedQueue().consume(d -> { })),
                q("stats() on a closed queue", closed, "closed", f -> f.closedQueue().stats()),
                q("deadLetters() on a closed queue", closed, "closed", f -> f.closedQueue().deadLetters().size()),
                new QueueCase("ack() of a delivery of a closed queue", Kind::redis, closed, "closed",
                        f -> f.heldByClosed.ack()),
                new QueueCase("retry() of a delivery of a closed queue", Kind::redis, closed, "closed",
                        f -> f.heldByClosed.retry(Duration.ZERO)),
                new QueueCase("deadLetter() of a delivery of a closed queue", Kind::redis, closed, "closed",
                        f -> f.heldByClosed.deadLetter("x")),
                delay("schedule on a closed queue", closed, "closed",
                        f -> ((DelayQueue<String>) f.closedQueue()).schedule("x", Duration.ZERO)),
                delay("cancel on a closed queue", closed, "closed",
                        f -> ((DelayQueue<String>) f.closedQueue()).cancel(MessageId.of("x"))),
                // delays and due times
                delay("schedule(null, 1 s)", npe, "payload", f -> d(f).schedule(null, Duration.ofSeconds(1))),
                delay("schedule(p, null)", npe, "delay", f -> d(f).schedule("p", null)),
                delay("schedule(p, -1 ms)", iae, "delay", f -> d(f).schedule("p", Duration.ofMillis(-1))),
                delay("schedule(p, MAX_DELAY + 1 day)", iae, "delay",
                        f -> d(f).schedule("p", DelayQueue.MAX_DELAY.plusDays(1))),
                delay("schedule(p, overflowing duration)", iae, "delay", f -> d(f).schedule("p", OVERFLOW)),
                delay("schedule(oversize, 1 s)", iae, "2000", f -> d(f).schedule(OVERSIZE, Duration.ofSeconds(1))),
                delay("scheduleAt(p, null)", npe, "dueAt", f -> d(f).scheduleAt("p", null)),
                delay("scheduleAt(p, Instant.MAX)", iae, "due time", f -> d(f).scheduleAt("p", Instant.MAX)),
                delay("scheduleAt(p, 11 years ahead)", iae, "due time", f -> d(f).scheduleAt("p", elevenYears)),
                delay("schedule(null id, p, 1 s)", npe, "id", f -> d(f).schedule(null, "p", Duration.ofSeconds(1))),
                delay("schedule(id, p, -1 s)", iae, "delay", f -> d(f).schedule(MessageId.of("k1"), "p", Duration.ofSeconds(-1))),
                delay("scheduleAt(id, p, Instant.MAX)", iae, "due time", f -> d(f).scheduleAt(MessageId.of("k1"), "p", Instant.MAX)),
                delay("scheduleAt(id, null, now)", npe, "payload", f -> d(f).scheduleAt(MessageId.of("k1"), null, Instant.now())),
                delay("cancel(null)", npe, "id", f -> d(f).cancel(null)),
                zset("scheduleAll(null, 1 s)", npe, "payloads", f -> ((RedisDelayQueue<String>) f.queue).scheduleAll(null, Duration.ofSeconds(1))),
                zset("scheduleAll([ok, null], 1 s) stores neither", npe, "index 1",
                        f -> ((RedisDelayQueue<String>) f.queue).scheduleAll(Arrays.asList("ok", null), Duration.ofSeconds(1))),
                zset("scheduleAll([ok], overflowing duration)", iae, "delay",
                        f -> ((RedisDelayQueue<String>) f.queue).scheduleAll(List.of("ok"), OVERFLOW)),
                zset("scheduleAllAt([ok], Instant.MAX)", iae, "due time",
                        f -> ((RedisDelayQueue<String>) f.queue).scheduleAllAt(List.of("ok"), Instant.MAX)),
                zset("scheduleAllAt([ok, oversize], now) stores neither", iae, "2000",
                        f -> ((RedisDelayQueue<String>) f.queue).scheduleAllAt(List.of("ok", OVERSIZE), Instant.now())));
    }

    static Stream<Arguments> queueCasesByKind() {
        List<Arguments> out = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (QueueCase c : queueCases()) {
                if (c.appliesTo().test(kind)) {
                    out.add(Arguments.of(kind, c));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("queueCasesByKind")
    void queueCall_isRefusedClearly_andChangesNothing(Kind kind, QueueCase c) throws Exception {
        try (Fixture f = new Fixture(kind)) {
            Map<String, String> before = f.snapshot();
            Throwable thrown = catchThrowable(() -> c.call().run(f));
            Map<String, String> after = f.snapshot();
            SoftAssertions soft = new SoftAssertions();
            refused(soft, kind + ": " + c.name(), thrown, c.expected(), c.mentions());
            soft.assertThat(after).as(kind + ": stored messages after " + c.name()).isEqualTo(before);
            soft.assertAll();
        }
    }

    private static void assertRefused(String what, Throwable thrown, Class<? extends Throwable> expected, String mentions) {
        SoftAssertions soft = new SoftAssertions();
        refused(soft, what, thrown, expected, mentions);
        soft.assertAll();
    }

    private static void refused(SoftAssertions soft, String what, Throwable thrown, Class<? extends Throwable> expected,
            String mentions) {
        soft.assertThat(thrown).as(what + ": exception").isInstanceOf(expected);
        if (thrown != null && mentions != null && expected.isInstance(thrown)) {
            soft.assertThat(thrown.getMessage()).as(what + ": message of " + thrown).isNotBlank()
                    .containsIgnoringCase(mentions);
        }
    }

    // ------------------------------------------------------------------------------------------
    // builders

    @FunctionalInterface
    interface BuilderCall {
        void run(Kind kind);
    }

    record BuilderCase(String name, Predicate<Kind> appliesTo, Class<? extends Throwable> expected, String mentions,
            BuilderCall call) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static BuilderCase b(String name, Class<? extends Throwable> expected, String mentions, BuilderCall call) {
        return new BuilderCase(name, k -> true, expected, mentions, call);
    }

    private static BuilderCase redisOnly(String name, Class<? extends Throwable> expected, String mentions, BuilderCall call) {
        return new BuilderCase(name, Kind::redis, expected, mentions, call);
    }

    private static void build(Kind kind, Kind.Settings s) {
        kind.configured(client, "valid-name", s).close();
    }

    private static void named(Kind kind, String name) {
        kind.configured(client, name, Kind.Settings.defaults()).close();
    }

    static List<BuilderCase> builderCases() {
        Class<NullPointerException> npe = NullPointerException.class;
        Class<IllegalArgumentException> iae = IllegalArgumentException.class;
        Kind.Settings d = Kind.Settings.defaults();
        return List.of(
                b("name null", npe, "name", k -> named(k, null)),
                b("name empty", iae, "name", k -> named(k, "")),
                b("name with braces {orders}", iae, "{", k -> named(k, "{orders}")),
                b("name with a closing brace", iae, "}", k -> named(k, "orders}x")),
                b("name with a space", iae, "name", k -> named(k, "my orders")),
                b("name with a glob *", iae, "*", k -> named(k, "orders*")),
                b("name with a newline", iae, "name", k -> named(k, "orders\r\nFLUSHALL")),
                b("name of 101 characters", iae, "100", k -> named(k, "n".repeat(101))),
                b("name with non-ASCII letters", iae, "name", k -> named(k, "bestellungen-ä")),
                redisOnly("keyPrefix with braces", iae, "prefix", k -> build(k, d.keyPrefix("app{x}"))),
                redisOnly("keyPrefix empty", iae, "prefix", k -> build(k, d.keyPrefix(""))),
                b("visibilityTimeout null", npe, "visibility", k -> build(k, d.visibility(null))),
                b("visibilityTimeout zero", iae, "visibility", k -> build(k, d.visibility(Duration.ZERO))),
                b("visibilityTimeout negative", iae, "visibility", k -> build(k, d.visibility(Duration.ofSeconds(-1)))),
                b("visibilityTimeout overflowing", iae, "visibility", k -> build(k, d.visibility(OVERFLOW))),
                redisOnly("blockTimeout zero", iae, "block timeout", k -> build(k, d.blockTimeout(Duration.ZERO))),
                redisOnly("blockTimeout negative", iae, "block timeout", k -> build(k, d.blockTimeout(Duration.ofMillis(-1)))),
                redisOnly("blockTimeout overflowing", iae, "block timeout", k -> build(k, d.blockTimeout(OVERFLOW))),
                b("maxAttempts 0", iae, "attempts", k -> build(k, d.maxAttempts(0))),
                b("maxAttempts negative", iae, "attempts", k -> build(k, d.maxAttempts(-5))),
                b("maxAttempts Integer.MAX_VALUE", iae, "attempts", k -> build(k, d.maxAttempts(Integer.MAX_VALUE))),
                b("maxPayloadBytes 0", iae, "payload", k -> build(k, d.maxPayloadBytes(0))),
                b("maxPayloadBytes negative", iae, "payload", k -> build(k, d.maxPayloadBytes(-1))),
                b("deadLetterRetention negative", iae, "retention", k -> build(k, d.deadLetterRetention(-1))));
    }

    static Stream<Arguments> builderCasesByKind() {
        List<Arguments> out = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (BuilderCase c : builderCases()) {
                if (c.appliesTo().test(kind)) {
                    out.add(Arguments.of(kind, c));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("builderCasesByKind")
    void builderSetting_isRefusedClearly(Kind kind, BuilderCase c) {
        Set<String> before = client.keys("*");
        assertRefused(kind + ": " + c.name(), catchThrowable(() -> c.call().run(kind)), c.expected(), c.mentions());
        assertThat(client.keys("*")).as("keys").isEqualTo(before);
    }

    // ------------------------------------------------------------------------------------------
    // broadcasters

    enum BroadcastKind { REDIS_PUBSUB, IN_MEMORY }

    /** An open broadcaster with a listening subscription, and a closed one. */
    static final class Channel implements AutoCloseable {
        final BroadcastKind kind;
        final Broadcaster<String> open;
        final Broadcaster<String> closed;
        final List<String> heard = new CopyOnWriteArrayList<>();

        Channel(BroadcastKind kind) {
            this.kind = kind;
            String name = "bad-" + NAMES.incrementAndGet();
            this.open = broadcaster(kind, name);
            this.closed = broadcaster(kind, name);
            closed.close();
            open.subscribe(heard::add);
        }

        static Broadcaster<String> broadcaster(BroadcastKind kind, String name) {
            return kind == BroadcastKind.REDIS_PUBSUB
                    ? RedisBroadcaster.builder(client, name, Codec.utf8()).maxPayloadBytes(Kind.MAX_PAYLOAD).build()
                    : InMemoryBroadcaster.<String>builder(name).codec(Codec.utf8()).maxPayloadBytes(Kind.MAX_PAYLOAD).build();
        }

        /** Publishes a marker and waits for it: anything heard before it was published by the case. */
        List<String> heardBeforeMarker() {
            open.publish("marker");
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains("marker"));
            return heard.subList(0, heard.indexOf("marker"));
        }

        @Override
        public void close() {
            open.close();
        }
    }

    @FunctionalInterface
    interface ChannelCall {
        void run(Channel c) throws Exception;
    }

    record ChannelCase(String name, Predicate<BroadcastKind> appliesTo, Class<? extends Throwable> expected,
            String mentions, ChannelCall call) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static ChannelCase ch(String name, Class<? extends Throwable> expected, String mentions, ChannelCall call) {
        return new ChannelCase(name, k -> true, expected, mentions, call);
    }

    private static ChannelCase pubsub(String name, Class<? extends Throwable> expected, String mentions, ChannelCall call) {
        return new ChannelCase(name, k -> k == BroadcastKind.REDIS_PUBSUB, expected, mentions, call);
    }

    private static RedisBroadcaster.Builder<String> rb() {
        return RedisBroadcaster.builder(client, "valid-name", Codec.utf8());
    }

    static List<ChannelCase> channelCases() {
        Class<NullPointerException> npe = NullPointerException.class;
        Class<IllegalArgumentException> iae = IllegalArgumentException.class;
        Class<QueueClosedException> closed = QueueClosedException.class;
        return List.of(
                ch("publish(null)", npe, "message", c -> c.open.publish(null)),
                ch("publish(oversize)", iae, "2000", c -> c.open.publish(OVERSIZE)),
                ch("subscribe(null)", npe, "listener", c -> c.open.subscribe(null)),
                ch("publish on a closed broadcaster", closed, "closed", c -> c.closed.publish("x")),
                ch("subscribe on a closed broadcaster", closed, "closed", c -> c.closed.subscribe(m -> { })),
                ch("builder: channel with braces", iae, "{", c -> Channel.broadcaster(c.kind, "{prices}")),
                ch("builder: channel null", npe, "name", c -> Channel.broadcaster(c.kind, null)),
                ch("builder: channel empty", iae, "name", c -> Channel.broadcaster(c.kind, "")),
                pubsub("publishAll(null)", npe, "payloads", c -> ((RedisBroadcaster<String>) c.open).publishAll(null)),
                pubsub("publishAll([ok, null]) publishes neither", npe, "index 1",
                        c -> ((RedisBroadcaster<String>) c.open).publishAll(Arrays.asList("ok", null))),
                pubsub("publishAll([ok, oversize]) publishes neither", iae, "2000",
                        c -> ((RedisBroadcaster<String>) c.open).publishAll(List.of("ok", OVERSIZE))),
                pubsub("subscribePattern with braces", iae, "{",
                        c -> ((RedisBroadcaster<String>) c.open).subscribePattern("a}{b", (n, m) -> { })),
                pubsub("subscribePattern(null)", npe, "pattern",
                        c -> ((RedisBroadcaster<String>) c.open).subscribePattern(null, (n, m) -> { })),
                pubsub("builder: keyPrefix with braces", iae, "keyPrefix", c -> rb().keyPrefix("{x}")),
                pubsub("builder: subscribeTimeout zero", iae, "subscribeTimeout", c -> rb().subscribeTimeout(Duration.ZERO)),
                pubsub("builder: subscribeTimeout overflowing", iae, "subscribeTimeout", c -> rb().subscribeTimeout(OVERFLOW)),
                pubsub("builder: keepAliveInterval negative", iae, "keepAliveInterval",
                        c -> rb().keepAliveInterval(Duration.ofSeconds(-1))),
                pubsub("builder: keepAliveInterval overflowing", iae, "keepAliveInterval", c -> rb().keepAliveInterval(OVERFLOW)),
                pubsub("builder: closeTimeout overflowing", iae, "closeTimeout", c -> rb().closeTimeout(OVERFLOW)),
                pubsub("builder: reconnectBackoff negative", iae, "backoff",
                        c -> rb().reconnectBackoff(Duration.ofMillis(-1), Duration.ofSeconds(1))),
                pubsub("builder: reconnectBackoff max below initial", iae, "backoff",
                        c -> rb().reconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1))),
                pubsub("builder: reconnectBackoff overflowing", iae, "backoff",
                        c -> rb().reconnectBackoff(Duration.ofSeconds(1), OVERFLOW)),
                pubsub("builder: bufferCapacity 0", iae, "bufferCapacity", c -> rb().bufferCapacity(0)),
                pubsub("builder: maxPayloadBytes 0", iae, "maxPayloadBytes", c -> rb().maxPayloadBytes(0)),
                new ChannelCase("builder: maxPayloadBytes 0", k -> k == BroadcastKind.IN_MEMORY, iae, "payload",
                        c -> InMemoryBroadcaster.<String>builder("x").maxPayloadBytes(0)));
    }

    static Stream<Arguments> channelCasesByKind() {
        List<Arguments> out = new ArrayList<>();
        for (BroadcastKind kind : BroadcastKind.values()) {
            for (ChannelCase c : channelCases()) {
                if (c.appliesTo().test(kind)) {
                    out.add(Arguments.of(kind, c));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("channelCasesByKind")
    void broadcasterCall_isRefusedClearly_andPublishesNothing(BroadcastKind kind, ChannelCase c) {
        try (Channel ch = new Channel(kind)) {
            assertRefused(kind + ": " + c.name(), catchThrowable(() -> c.call().run(ch)), c.expected(), c.mentions());
            assertThat(ch.heardBeforeMarker()).as("published by a refused call").isEmpty();
        }
    }

    // ------------------------------------------------------------------------------------------
    // shared value types

    record ValueCase(String name, Class<? extends Throwable> expected, String mentions, Runnable call) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<ValueCase> valueCases() {
        Class<NullPointerException> npe = NullPointerException.class;
        Class<IllegalArgumentException> iae = IllegalArgumentException.class;
        return List.of(
                new ValueCase("MessageId.of(null)", npe, "id", () -> MessageId.of(null)),
                new ValueCase("MessageId.of(\"\")", iae, "1 to 200", () -> MessageId.of("")),
                new ValueCase("MessageId with a space", iae, "whitespace", () -> MessageId.of("a b")),
                new ValueCase("MessageId with a newline", iae, "control", () -> MessageId.of("a\nb")),
                new ValueCase("MessageId of 201 characters", iae, "200", () -> MessageId.of("i".repeat(201))),
                new ValueCase("ConsumeOptions concurrency 0", iae, "concurrency", () -> ConsumeOptions.builder().concurrency(0)),
                new ValueCase("ConsumeOptions concurrency 1025", iae, "concurrency", () -> ConsumeOptions.builder().concurrency(1025)),
                new ValueCase("ConsumeOptions batchSize 0", iae, "batch", () -> ConsumeOptions.builder().batchSize(0)),
                new ValueCase("ConsumeOptions pollTimeout null", npe, "poll timeout", () -> ConsumeOptions.builder().pollTimeout(null)),
                new ValueCase("ConsumeOptions pollTimeout zero", iae, "poll timeout", () -> ConsumeOptions.builder().pollTimeout(Duration.ZERO)),
                new ValueCase("ConsumeOptions pollTimeout negative", iae, "poll timeout",
                        () -> ConsumeOptions.builder().pollTimeout(Duration.ofSeconds(-1))),
                new ValueCase("ConsumeOptions pollTimeout overflowing", iae, "poll timeout",
                        () -> ConsumeOptions.builder().pollTimeout(OVERFLOW)),
                new ValueCase("ConsumeOptions backoff negative", iae, "backoff",
                        () -> ConsumeOptions.builder().backoff(Duration.ofMillis(-1), Duration.ofSeconds(1))),
                new ValueCase("ConsumeOptions backoff max below initial", iae, "backoff",
                        () -> ConsumeOptions.builder().backoff(Duration.ofSeconds(2), Duration.ofSeconds(1))),
                new ValueCase("ConsumeOptions backoff null", npe, "backoff",
                        () -> ConsumeOptions.builder().backoff(null, Duration.ofSeconds(1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueCases")
    void valueTypeArgument_isRefusedClearly(ValueCase c) {
        assertRefused(c.name(), catchThrowable(c.call()::run), c.expected(), c.mentions());
    }

    // ------------------------------------------------------------------------------------------
    // edge cases that are accepted

    @ParameterizedTest
    @EnumSource(Kind.class)
    void emptyPayload_andEmptyBatch_areAccepted(Kind kind) throws Exception {
        try (Fixture f = new Fixture(kind)) {
            Map<String, String> before = f.snapshot();
            assertThat(f.queue.sendAll(List.of())).isEmpty();
            assertThat(f.snapshot()).as("an empty batch stores nothing").isEqualTo(before);

            f.queue.send("");
            List<String> got = new ArrayList<>();
            for (Delivery<String> d; (d = f.queue.poll(200, TimeUnit.MILLISECONDS)) != null; ) {
                got.add(d.payload());
                d.ack();
            }
            assertThat(got).as("the ready messages, the empty one last").endsWith("");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"REDIS_ZSET", "IN_MEMORY_DELAY"})
    void instantsFarInThePast_meanNow(Kind kind) throws Exception {
        try (Fixture f = new Fixture(kind)) {
            DelayQueue<String> q = d(f);
            q.poll(1, TimeUnit.SECONDS).ack(); // "c", the one ready message
            q.scheduleAt("min", Instant.MIN);
            q.scheduleAt("1969", Instant.EPOCH.minusSeconds(1));
            q.scheduleAt("yesterday", Instant.now().minus(Duration.ofDays(1)));
            assertThat(q.scheduleAt(MessageId.of("dup"), "min-id", Instant.MIN)).isTrue();
            List<String> got = new ArrayList<>();
            for (Delivery<String> d; (d = q.poll(200, TimeUnit.MILLISECONDS)) != null; ) {
                got.add(d.payload());
            }
            assertThat(got).containsExactly("min", "1969", "yesterday", "min-id");
            assertThat(q.schedule("max", DelayQueue.MAX_DELAY)).isNotNull();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void overflowingTimeouts_wait(Kind kind) throws Exception {
        try (Fixture f = new Fixture(kind)) {
            Delivery<String> d = f.queue.poll(Long.MAX_VALUE, TimeUnit.DAYS);
            assertThat(d.payload()).as("a ready message, at once").isEqualTo("c");
            f.queue.send("d");
            assertThat(f.queue.pollBatch(Integer.MAX_VALUE, Long.MAX_VALUE, TimeUnit.NANOSECONDS))
                    .extracting(Delivery::payload).containsExactly("d");

            Thread sender = new Thread(() -> {
                try {
                    Thread.sleep(300); // so that the poll below is already waiting
                    f.queue.send("e");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            sender.start();
            assertThat(f.queue.poll(Long.MAX_VALUE, TimeUnit.DAYS).payload()).as("a message sent while waiting")
                    .isEqualTo("e");
            sender.join();
        }
    }

    /** A duration a setter accepts must work: an overflowing visibility timeout must not lose messages. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void overflowingVisibilityTimeout_ifAccepted_losesNoMessage(Kind kind) throws Exception {
        MessageQueue<String> q;
        try {
            q = kind.configured(client, "bad-" + NAMES.incrementAndGet(), Kind.Settings.defaults().visibility(OVERFLOW));
        } catch (IllegalArgumentException | ArithmeticException refused) {
            return; // refused at once; the catalogue checks how
        }
        try (q) {
            q.send("x");
            Throwable thrown = catchThrowable(() -> {
                Delivery<String> d = q.poll(1, TimeUnit.SECONDS);
                assertThat(d.payload()).isEqualTo("x");
                d.ack();
            });
            if (thrown != null) {
                assertThat(q.stats().total()).as(kind + ": messages stored after poll threw " + thrown).isEqualTo(1);
            }
        }
    }

    /** A duration a setter accepts must work: a broadcaster built with it subscribes, delivers and closes. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"subscribeTimeout", "keepAliveInterval", "closeTimeout"})
    void overflowingBroadcasterDuration_ifAccepted_stillDeliversAndCloses(String setting) throws Exception {
        RedisBroadcaster.Builder<String> b = RedisBroadcaster.builder(client, "bad-" + NAMES.incrementAndGet(), Codec.utf8());
        try {
            switch (setting) {
                case "subscribeTimeout" -> b.subscribeTimeout(OVERFLOW);
                case "keepAliveInterval" -> b.keepAliveInterval(OVERFLOW);
                default -> b.closeTimeout(OVERFLOW);
            }
        } catch (IllegalArgumentException refused) {
            return;
        }
        RedisBroadcaster<String> broadcaster = b.build();
        List<String> heard = new CopyOnWriteArrayList<>();
        SoftAssertions soft = new SoftAssertions();
        soft.assertThatCode(() -> {
            broadcaster.subscribe(heard::add);
            broadcaster.publish("m");
            await().atMost(Duration.ofSeconds(3)).until(() -> heard.contains("m"));
        }).as(setting + "(overflowing): subscribe and receive").doesNotThrowAnyException();
        soft.assertThatCode(broadcaster::close).as(setting + "(overflowing): close").doesNotThrowAnyException();
        soft.assertAll();
    }
}

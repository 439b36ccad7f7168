package io.queuekit.it;

import static io.queuekit.tck.BadInputCatalogue.assertRefused;
import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.abort;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.Scheduled;
import io.queuekit.inmemory.InMemoryBroadcaster;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.tck.BadChannelInputCatalogue.Channel;
import io.queuekit.tck.BadChannelInputCatalogue.ChannelCall;
import io.queuekit.tck.BadChannelInputCatalogue.ChannelCase;
import io.queuekit.tck.BadInputCatalogue;
import io.queuekit.tck.BadInputCatalogue.QueueCall;
import io.queuekit.tck.BadInputCatalogue.QueueCase;
import io.queuekit.tck.BadInputCatalogue.SeededQueue;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
import redis.clients.jedis.UnifiedJedis;

/**
 * The bad-input catalogue of the contract ({@link BadInputCatalogue}) on the Redis transports, with
 * a closer look than the contract takes: besides the queue's stats, a {@code DUMP} of every key of
 * the queue is compared before and after each refused call, so a call that stored or removed
 * anything, even without changing a count, is caught. The contract itself runs the catalogue on
 * every transport, the in-memory ones included ({@code BadInputContract} and the parts beside it).
 *
 * <p>Here too: the cases the contract cannot pose, because they need a builder's settings or a
 * method only one transport has. Oversize payloads (with a configured limit), invalid names
 * (braces would break the hash tag), builder settings out of range, pattern subscriptions, and the
 * shared value types; on every transport, in memory too, since these are the builders' and the
 * value types' promises. Settings that a builder accepts must then work.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@RedisServerTest(server = PER_CLASS)
class BadInputCatalogueTest {
    private static final String OVERSIZE = "x".repeat(2000);
    private static final Duration OVERFLOW = BadInputCatalogue.OVERFLOW;
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static RedisClient client;

    @BeforeAll
    static void connect(RedisClient redis) {
        client = redis;
    }

    // ------------------------------------------------------------------------------------------
    // queues

    /** A queue seeded for the catalogue (see {@link SeededQueue}), built by {@link Kind#queue}. */
    static final class Fixture implements AutoCloseable {
        final Kind kind;
        final String name;
        final SeededQueue seeded;

        Fixture(Kind kind) throws InterruptedException {
            this.kind = kind;
            this.name = "bad-" + NAMES.incrementAndGet();
            UnifiedJedis c = kind.redis() ? client : null;
            this.seeded = SeededQueue.seed(kind.queue(c, name), kind.queue(c, name), Instant.now());
        }

        /** Stats, and for Redis every key of the queue as DUMP bytes. */
        Map<String, String> snapshot() {
            Map<String, String> s = new TreeMap<>();
            s.put("stats", seeded.queue().stats().toString());
            if (kind.redis()) {
                for (String key : client.keys("queuekit:{" + name + "}*")) {
                    s.put(key, Base64.getEncoder().encodeToString(client.dump(key)));
                }
            }
            return s;
        }

        @Override
        public void close() {
            seeded.queue().close();
        }
    }

    /** A case, and the transports it is posed to. */
    record KindCase(Predicate<Kind> kinds, QueueCase c) {
        @Override
        public String toString() {
            return c.toString();
        }
    }

    private static KindCase configured(
            String name, Predicate<Kind> kinds, Class<? extends Throwable> expected, String mentions, QueueCall call) {
        return new KindCase(kinds, new QueueCase(name, s -> true, expected, mentions, call));
    }

    /**
     * The catalogue's cases on the Redis transports (the contract poses them to every transport),
     * and the cases that need the payload limit {@link Kind} configures, on every transport they
     * apply to.
     */
    static List<KindCase> queueCases() {
        Class<IllegalArgumentException> iae = IllegalArgumentException.class;
        Predicate<Kind> all = k -> true;
        List<KindCase> cases = new ArrayList<>();
        BadInputCatalogue.queueCases().forEach(c -> cases.add(new KindCase(Kind::redis, c)));
        BadInputCatalogue.delayQueueCases().forEach(c -> cases.add(new KindCase(k -> k.redis() && k.delays(), c)));
        cases.addAll(List.of(
                configured("send(oversize)", all, iae, "2000", f -> f.queue().send(OVERSIZE)),
                configured(
                        "send(one byte over the limit)",
                        all,
                        iae,
                        "1024",
                        f -> f.queue().send("y".repeat(Kind.MAX_PAYLOAD + 1))),
                configured(
                        "sendAll([ok, oversize]) stores neither",
                        all,
                        iae,
                        "2000",
                        f -> f.queue().sendAll(List.of("ok", OVERSIZE))),
                configured(
                        "schedule(oversize, 1 s)",
                        Kind::delays,
                        iae,
                        "2000",
                        f -> f.delays().schedule(OVERSIZE, Duration.ofSeconds(1))),
                configured(
                        "scheduleAllAt([ok, oversize], now) stores neither",
                        Kind::delays,
                        iae,
                        "2000",
                        f -> f.delays().scheduleAllAt(List.of("ok", OVERSIZE), Instant.now())),
                configured(
                        "scheduleEach([ok, oversize]) stores neither",
                        Kind::delays,
                        iae,
                        "2000",
                        f -> f.delays()
                                .scheduleEach(List.of(
                                        Scheduled.at("ok", Instant.now()), Scheduled.at(OVERSIZE, Instant.now()))))));
        return cases;
    }

    static Stream<Arguments> queueCasesByKind() {
        List<Arguments> out = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (KindCase c : queueCases()) {
                if (c.kinds().test(kind)) {
                    out.add(Arguments.of(kind, c.c()));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("queueCasesByKind")
    void queueCall_isRefusedClearly_andChangesNothing(Kind kind, QueueCase c) throws Exception {
        try (Fixture f = new Fixture(kind)) {
            BadInputCatalogue.assertRefusedLeavingAllAsItWas(c, f.seeded, f::snapshot);
        }
    }

    // ------------------------------------------------------------------------------------------
    // builders

    @FunctionalInterface
    interface BuilderCall {
        void run(Kind kind);
    }

    record BuilderCase(
            String name,
            Predicate<Kind> appliesTo,
            Class<? extends Throwable> expected,
            String mentions,
            BuilderCall call) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static BuilderCase b(String name, Class<? extends Throwable> expected, String mentions, BuilderCall call) {
        return new BuilderCase(name, k -> true, expected, mentions, call);
    }

    private static BuilderCase redisOnly(
            String name, Class<? extends Throwable> expected, String mentions, BuilderCall call) {
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
                redisOnly(
                        "blockTimeout negative",
                        iae,
                        "block timeout",
                        k -> build(k, d.blockTimeout(Duration.ofMillis(-1)))),
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

    enum BroadcastKind {
        REDIS_PUBSUB,
        IN_MEMORY
    }

    static Broadcaster<String> broadcaster(BroadcastKind kind, String name) {
        return kind == BroadcastKind.REDIS_PUBSUB
                ? RedisBroadcaster.builder(client, name, Codec.utf8())
                        .maxPayloadBytes(Kind.MAX_PAYLOAD)
                        .build()
                : InMemoryBroadcaster.<String>builder(name)
                        .codec(Codec.utf8())
                        .maxPayloadBytes(Kind.MAX_PAYLOAD)
                        .build();
    }

    /** A channel for a case (see {@link Channel}), on broadcasters built with a payload limit. */
    static Channel channel(BroadcastKind kind) {
        String name = "bad-" + NAMES.incrementAndGet();
        return new Channel(broadcaster(kind, name), broadcaster(kind, name));
    }

    /** A case of a builder, or of a method only one broadcaster has; the catalogue's own run in the contract. */
    record KindChannelCase(Predicate<BroadcastKind> kinds, ChannelCase c) {
        @Override
        public String toString() {
            return c.toString();
        }
    }

    private static KindChannelCase ch(
            String name, Class<? extends Throwable> expected, String mentions, ChannelCall call) {
        return new KindChannelCase(k -> true, new ChannelCase(name, expected, mentions, call));
    }

    private static KindChannelCase pubsub(
            String name, Class<? extends Throwable> expected, String mentions, ChannelCall call) {
        return new KindChannelCase(
                k -> k == BroadcastKind.REDIS_PUBSUB, new ChannelCase(name, expected, mentions, call));
    }

    @SuppressWarnings("unchecked")
    private static RedisBroadcaster<String> redis(Channel c) {
        return (RedisBroadcaster<String>) c.open();
    }

    private static RedisBroadcaster.Builder<String> rb() {
        return RedisBroadcaster.builder(client, "valid-name", Codec.utf8());
    }

    static List<KindChannelCase> channelCases() {
        Class<NullPointerException> npe = NullPointerException.class;
        Class<IllegalArgumentException> iae = IllegalArgumentException.class;
        return List.of(
                ch("publish(oversize)", iae, "2000", c -> c.open().publish(OVERSIZE)),
                ch("builder: channel with braces", iae, "{", c -> broadcaster(kindOf(c), "{prices}")),
                ch("builder: channel null", npe, "name", c -> broadcaster(kindOf(c), null)),
                ch("builder: channel empty", iae, "name", c -> broadcaster(kindOf(c), "")),
                ch(
                        "publishAll([ok, oversize]) publishes neither",
                        iae,
                        "2000",
                        c -> c.open().publishAll(List.of("ok", OVERSIZE))),
                pubsub("subscribePattern with braces", iae, "{", c -> redis(c).subscribePattern("a}{b", (n, m) -> {})),
                pubsub("subscribePattern(null)", npe, "pattern", c -> redis(c).subscribePattern(null, (n, m) -> {})),
                pubsub("builder: keyPrefix with braces", iae, "keyPrefix", c -> rb().keyPrefix("{x}")),
                pubsub(
                        "builder: subscribeTimeout zero",
                        iae,
                        "subscribeTimeout",
                        c -> rb().subscribeTimeout(Duration.ZERO)),
                pubsub(
                        "builder: subscribeTimeout overflowing",
                        iae,
                        "subscribeTimeout",
                        c -> rb().subscribeTimeout(OVERFLOW)),
                pubsub(
                        "builder: keepAliveInterval negative",
                        iae,
                        "keepAliveInterval",
                        c -> rb().keepAliveInterval(Duration.ofSeconds(-1))),
                pubsub(
                        "builder: keepAliveInterval overflowing",
                        iae,
                        "keepAliveInterval",
                        c -> rb().keepAliveInterval(OVERFLOW)),
                pubsub("builder: closeTimeout overflowing", iae, "closeTimeout", c -> rb().closeTimeout(OVERFLOW)),
                pubsub(
                        "builder: reconnectBackoff negative",
                        iae,
                        "backoff",
                        c -> rb().reconnectBackoff(Duration.ofMillis(-1), Duration.ofSeconds(1))),
                pubsub(
                        "builder: reconnectBackoff max below initial",
                        iae,
                        "backoff",
                        c -> rb().reconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1))),
                pubsub(
                        "builder: reconnectBackoff overflowing",
                        iae,
                        "backoff",
                        c -> rb().reconnectBackoff(Duration.ofSeconds(1), OVERFLOW)),
                pubsub("builder: bufferCapacity 0", iae, "bufferCapacity", c -> rb().bufferCapacity(0)),
                pubsub("builder: maxPayloadBytes 0", iae, "maxPayloadBytes", c -> rb().maxPayloadBytes(0)),
                new KindChannelCase(
                        k -> k == BroadcastKind.IN_MEMORY,
                        new ChannelCase(
                                "builder: maxPayloadBytes 0",
                                iae,
                                "payload",
                                c -> InMemoryBroadcaster.<String>builder("x").maxPayloadBytes(0))));
    }

    private static BroadcastKind kindOf(Channel c) {
        return c.open() instanceof RedisBroadcaster ? BroadcastKind.REDIS_PUBSUB : BroadcastKind.IN_MEMORY;
    }

    static Stream<Arguments> channelCasesByKind() {
        List<Arguments> out = new ArrayList<>();
        for (BroadcastKind kind : BroadcastKind.values()) {
            for (KindChannelCase c : channelCases()) {
                if (c.kinds().test(kind)) {
                    out.add(Arguments.of(kind, c.c()));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("channelCasesByKind")
    void broadcasterCall_isRefusedClearly_andPublishesNothing(BroadcastKind kind, ChannelCase c) {
        Channel ch = channel(kind);
        try {
            assertRefused(kind + ": " + c.name(), catchThrowable(() -> c.call().run(ch)), c.expected(), c.mentions());
            assertThat(ch.heardBeforeMarker()).as("published by a refused call").isEmpty();
        } finally {
            ch.open().close();
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
                new ValueCase(
                        "ConsumeOptions concurrency 0",
                        iae,
                        "concurrency",
                        () -> ConsumeOptions.builder().concurrency(0)),
                new ValueCase(
                        "ConsumeOptions concurrency 1025",
                        iae,
                        "concurrency",
                        () -> ConsumeOptions.builder().concurrency(1025)),
                new ValueCase(
                        "ConsumeOptions batchSize 0",
                        iae,
                        "batch",
                        () -> ConsumeOptions.builder().batchSize(0)),
                new ValueCase(
                        "ConsumeOptions pollTimeout null",
                        npe,
                        "poll timeout",
                        () -> ConsumeOptions.builder().pollTimeout(null)),
                new ValueCase(
                        "ConsumeOptions pollTimeout zero",
                        iae,
                        "poll timeout",
                        () -> ConsumeOptions.builder().pollTimeout(Duration.ZERO)),
                new ValueCase(
                        "ConsumeOptions pollTimeout negative",
                        iae,
                        "poll timeout",
                        () -> ConsumeOptions.builder().pollTimeout(Duration.ofSeconds(-1))),
                new ValueCase(
                        "ConsumeOptions pollTimeout overflowing",
                        iae,
                        "poll timeout",
                        () -> ConsumeOptions.builder().pollTimeout(OVERFLOW)),
                new ValueCase(
                        "ConsumeOptions backoff negative",
                        iae,
                        "backoff",
                        () -> ConsumeOptions.builder().backoff(Duration.ofMillis(-1), Duration.ofSeconds(1))),
                new ValueCase(
                        "ConsumeOptions backoff max below initial",
                        iae,
                        "backoff",
                        () -> ConsumeOptions.builder().backoff(Duration.ofSeconds(2), Duration.ofSeconds(1))),
                new ValueCase(
                        "ConsumeOptions backoff null",
                        npe,
                        "backoff",
                        () -> ConsumeOptions.builder().backoff(null, Duration.ofSeconds(1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueCases")
    void valueTypeArgument_isRefusedClearly(ValueCase c) {
        assertRefused(c.name(), catchThrowable(c.call()::run), c.expected(), c.mentions());
    }

    // ------------------------------------------------------------------------------------------
    // edge cases that are accepted (the contract checks that they work on every transport)

    @ParameterizedTest
    @EnumSource(
            value = Kind.class,
            names = {"REDIS_LIST_AT_LEAST_ONCE", "REDIS_LIST_AT_MOST_ONCE", "REDIS_ZSET"})
    void emptyBatch_storesNothing_byteForByte(Kind kind) throws Exception {
        try (Fixture f = new Fixture(kind)) {
            Map<String, String> before = f.snapshot();

            assertThat(f.seeded.queue().sendAll(List.of())).isEmpty();

            assertThat(f.snapshot()).as("an empty batch stores nothing").isEqualTo(before);
        }
    }

    /** A duration a setter accepts must work: an overflowing visibility timeout must not lose messages. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void overflowingVisibilityTimeout_ifAccepted_losesNoMessage(Kind kind) throws Exception {
        MessageQueue<String> q;
        try {
            q = kind.configured(
                    client,
                    "bad-" + NAMES.incrementAndGet(),
                    Kind.Settings.defaults().visibility(OVERFLOW));
        } catch (IllegalArgumentException | ArithmeticException refused) {
            // refused at once, as the builder cases above expect: nothing accepted to check
            abort(kind + " refuses an overflowing visibility timeout: " + refused.getMessage());
            return;
        }
        try (q) {
            q.send("x");
            Throwable thrown = catchThrowable(() -> {
                Delivery<String> d = q.poll(1, TimeUnit.SECONDS);
                assertThat(d.payload()).isEqualTo("x");
                d.ack();
            });
            if (thrown != null) {
                assertThat(q.stats().total())
                        .as(kind + ": messages stored after poll threw " + thrown)
                        .isEqualTo(1);
            }
        }
    }

    /** A duration a setter accepts must work: a broadcaster built with it subscribes, delivers and closes. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"subscribeTimeout", "keepAliveInterval", "closeTimeout"})
    void overflowingBroadcasterDuration_ifAccepted_stillDeliversAndCloses(String setting) throws Exception {
        RedisBroadcaster.Builder<String> b =
                RedisBroadcaster.builder(client, "bad-" + NAMES.incrementAndGet(), Codec.utf8());
        try {
            switch (setting) {
                case "subscribeTimeout" -> b.subscribeTimeout(OVERFLOW);
                case "keepAliveInterval" -> b.keepAliveInterval(OVERFLOW);
                default -> b.closeTimeout(OVERFLOW);
            }
        } catch (IllegalArgumentException refused) {
            // refused at once, as the builder cases above expect: nothing accepted to check
            abort(setting + "(overflowing) is refused: " + refused.getMessage());
            return;
        }
        RedisBroadcaster<String> broadcaster = b.build();
        List<String> heard = new CopyOnWriteArrayList<>();
        SoftAssertions soft = new SoftAssertions();
        soft.assertThatCode(() -> {
                    broadcaster.subscribe(heard::add);
                    broadcaster.publish("m");
                    await().atMost(Duration.ofSeconds(3)).until(() -> heard.contains("m"));
                })
                .as(setting + "(overflowing): subscribe and receive")
                .doesNotThrowAnyException();
        soft.assertThatCode(broadcaster::close)
                .as(setting + "(overflowing): close")
                .doesNotThrowAnyException();
        soft.assertAll();
    }
}

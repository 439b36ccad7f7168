package io.queuekit.redis.pubsub;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.TransportException;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * What is specific to Redis PUB/SUB, on a server of its own: its pattern tests subscribe to patterns
 * as wide as {@code *}, which would add a receiver to the publishes that other classes count.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest(server = PER_CLASS)
class RedisBroadcasterTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final RedisServer server;
    private final RedisClient client;

    RedisBroadcasterTest(RedisServer server, RedisClient client) {
        this.server = server;
        this.client = client;
    }

    private RedisBroadcaster<String> strings(String channel) {
        return RedisBroadcaster.builder(client, channel, Codec.utf8()).build();
    }

    @Nested
    @DisplayName("subscribe returns only once Redis confirmed the subscription")
    class Confirmation {

        @Test
        void subscribe_thenPublishAtOnce_isReceived_everyTime() throws Exception {
            try (RedisBroadcaster<String> b = strings(Channels.unique("confirm"))) {
                for (int i = 0; i < 300; i++) {
                    BlockingQueue<String> got = new ArrayBlockingQueue<>(4);
                    try (RedisSubscription s = b.subscribe(got::add)) {
                        assertThat(s.isConnected()).isTrue();
                        assertThat(b.publish("m" + i))
                                .as("receivers of message %d", i)
                                .isEqualTo(1);
                        assertThat(got.poll(10, TimeUnit.SECONDS)).isEqualTo("m" + i);
                    }
                }
            }
        }

        @Test
        void publish_returnsHowManySubscriptionsReceived() {
            try (RedisBroadcaster<String> b = strings(Channels.unique("count"))) {
                assertThat(b.publish("to no one")).isZero();
                b.subscribe(m -> {});
                b.subscribe(m -> {});
                b.subscribePattern(b.name().substring(0, 5) + "*", (c, m) -> {});
                assertThat(b.publish("to three")).isEqualTo(3);
            }
        }

        @Test
        void subscribe_whenRedisIsUnreachable_failsAtOnceWithTheCause() throws Exception {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            String channel = Channels.unique("unreachable");
            try (RedisClient nowhere = RedisClient.create("127.0.0.1", port);
                    RedisBroadcaster<String> b = RedisBroadcaster.builder(nowhere, channel, Codec.utf8())
                            .build()) {
                assertThatThrownBy(() -> b.subscribe(m -> {}))
                        .isInstanceOf(TransportException.class)
                        .hasMessageContaining("could not subscribe")
                        .hasCauseInstanceOf(JedisConnectionException.class);
                assertThatThrownBy(() -> b.publish("x"))
                        .isInstanceOf(TransportException.class)
                        .hasCauseInstanceOf(JedisConnectionException.class);
                await().atMost(WAIT).until(() -> !threadAlive("queuekit-" + channel + "-"));
            }
        }

        @Test
        void subscribe_whenThePoolHasNoConnectionLeft_timesOutSayingSo_andLeavesNoThreadWaiting() {
            ConnectionPoolConfig one = new ConnectionPoolConfig();
            one.setMaxTotal(1); // and the pool's default maxWait: forever
            String channel = Channels.unique("pool");
            try (RedisClient small = RedisClients.builder(server).pool(one).build();
                    RedisBroadcaster<String> b = RedisBroadcaster.builder(small, channel, Codec.utf8())
                            .subscribeTimeout(Duration.ofMillis(300))
                            .build()) {
                RedisSubscription holdsTheOnlyConnection = b.subscribe(m -> {});
                for (int i = 2; i <= 4; i++) {
                    assertThatThrownBy(() -> b.subscribe(m -> {}))
                            .isInstanceOf(TransportException.class)
                            .hasMessageContaining("PT0.3S")
                            .hasMessageContaining("pool");
                    String failed = "queuekit-" + channel + "-subscriber-" + i;
                    // given up, while the only connection is still taken: no thread waits on for it
                    await().atMost(WAIT).until(() -> !threadAlive(failed));
                }
                assertThat(holdsTheOnlyConnection.isConnected()).isTrue();
                holdsTheOnlyConnection.close();
                assertThat(small.getPool().getNumActive()).isZero();
                assertThat(b.publish("to no one")).isZero();
            }
        }
    }

    @Nested
    @DisplayName("listeners are isolated from each other's failures")
    class Listeners {

        @Test
        void listenerThrowingOnEveryThirdMessage_stillReceivesTheRest() {
            try (RedisBroadcaster<String> b = strings(Channels.unique("throws"))) {
                List<String> seen = new CopyOnWriteArrayList<>();
                List<String> bystander = new CopyOnWriteArrayList<>();
                RedisSubscription failing = b.subscribe(m -> {
                    seen.add(m);
                    if (Integer.parseInt(m) % 3 == 0) {
                        throw new IllegalStateException("boom on " + m);
                    }
                });
                RedisSubscription other = b.subscribe(bystander::add);
                List<String> all =
                        IntStream.range(0, 30).mapToObj(Integer::toString).toList();
                all.forEach(b::publish);

                await().atMost(WAIT).until(() -> seen.size() == 30 && bystander.size() == 30);
                assertThat(seen).containsExactlyElementsOf(all);
                assertThat(bystander).containsExactlyElementsOf(all);
                assertThat(failing.listenerFailures()).isEqualTo(10);
                assertThat(other.listenerFailures()).isZero();
                assertThat(b.listenerFailures()).isEqualTo(10);
                assertThat(failing.isActive()).isTrue();
            }
        }

        @Test
        void listener_runsOnTheSubscriptionsNamedThread_inPublishOrder() {
            String channel = Channels.unique("threads");
            try (RedisBroadcaster<String> b = strings(channel)) {
                List<String> threads = new CopyOnWriteArrayList<>();
                List<String> got = new CopyOnWriteArrayList<>();
                b.subscribe(m -> threads.add(Thread.currentThread().getName()));
                RedisSubscription second = b.subscribe(got::add);
                List<String> all =
                        IntStream.range(0, 100).mapToObj(i -> "m" + i).toList();
                b.publishAll(all);

                await().atMost(WAIT).until(() -> got.size() == 100 && threads.size() == 100);
                assertThat(got).containsExactlyElementsOf(all);
                assertThat(threads).containsOnly("queuekit-" + channel + "-subscriber-1");
                assertThat(second.name()).isEqualTo("queuekit-" + channel + "-subscriber-2");
            }
        }

        @Test
        void undecodableMessage_isSkippedAndCounted() {
            Codec<String> picky = new PickyCodec();
            try (RedisBroadcaster<String> b = RedisBroadcaster.builder(client, Channels.unique("decode"), picky)
                    .build()) {
                List<String> got = new CopyOnWriteArrayList<>();
                RedisSubscription s = b.subscribe(got::add);
                client.publish(b.channelKey(), "bad bytes from someone else");
                b.publish("good");
                await().atMost(WAIT).until(() -> got.contains("good"));
                assertThat(got).containsExactly("good");
                assertThat(s.decodeFailures()).isEqualTo(1);
                assertThat(s.listenerFailures()).isZero();
            }
        }

        @Test
        void subscription_closedFromItsOwnListener_stops() {
            try (RedisBroadcaster<String> b = strings(Channels.unique("selfclose"))) {
                List<String> got = new CopyOnWriteArrayList<>();
                RedisSubscription[] self = new RedisSubscription[1];
                CountDownLatch assigned = new CountDownLatch(1);
                self[0] = b.subscribe(m -> {
                    got.add(m);
                    assigned.await();
                    self[0].close();
                });
                assigned.countDown();
                b.publish("first");
                await().atMost(WAIT).until(() -> !self[0].isActive() && b.publish("second") == 0);
                assertThat(got).containsExactly("first");
                await().atMost(WAIT).until(() -> !threadAlive(self[0].name()));
            }
        }
    }

    @Nested
    @DisplayName("pattern subscriptions receive from every matching channel")
    class Patterns {

        @Test
        void patternSubscription_receivesFromMatchingChannels_withTheirNames() {
            String prefix = Channels.unique("p");
            try (RedisBroadcaster<String> eur = RedisBroadcaster.builder(client, "prices.eur", Codec.utf8())
                            .keyPrefix(prefix)
                            .build();
                    RedisBroadcaster<String> usd = RedisBroadcaster.builder(client, "prices.usd", Codec.utf8())
                            .keyPrefix(prefix)
                            .build();
                    RedisBroadcaster<String> orders = RedisBroadcaster.builder(client, "orders", Codec.utf8())
                            .keyPrefix(prefix)
                            .build()) {
                List<String> got = new CopyOnWriteArrayList<>();
                RedisSubscription s = eur.subscribePattern("prices.*", (channel, m) -> got.add(channel + "=" + m));
                assertThat(s.isPattern()).isTrue();
                assertThat(s.channel()).isEqualTo("prices.*");

                assertThat(orders.publish("o1")).isZero();
                assertThat(usd.publish("1.08")).isEqualTo(1);
                assertThat(eur.publish("0.92")).isEqualTo(1);

                // Redis delivers in execution order, so o1 would have arrived before these
                await().atMost(WAIT).until(() -> got.size() == 2);
                assertThat(got).containsExactly("prices.usd=1.08", "prices.eur=0.92");
            }
        }

        @Test
        void patternSubscription_glob() {
            String prefix = Channels.unique("g");
            try (RedisBroadcaster<String> a = RedisBroadcaster.builder(client, "shard-1", Codec.utf8())
                            .keyPrefix(prefix)
                            .build();
                    RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "shard-7", Codec.utf8())
                            .keyPrefix(prefix)
                            .build()) {
                List<String> got = new CopyOnWriteArrayList<>();
                a.subscribePattern("shard-[^7]", (channel, m) -> got.add(channel));
                assertThat(b.publish("x")).isZero();
                assertThat(a.publish("y")).isEqualTo(1);
                await().atMost(WAIT).until(() -> got.size() == 1);
                assertThat(got).containsExactly("shard-1");
            }
        }
    }

    @Nested
    @DisplayName("a pattern reaches only broadcaster channels under its key prefix")
    class PatternNamespace {

        @ParameterizedTest
        @ValueSource(strings = {"*[^", "a[", "[a", "a[^", "x[a-]", "[]]", "a]", "*]*", "[a-z]x["})
        void patternsThatLeaveASetOpen_orCloseOneNeverOpened_areRefused(String pattern) {
            try (RedisBroadcaster<String> b = strings(Channels.unique("open"))) {
                assertThatThrownBy(() -> b.subscribePattern(pattern, (c, m) -> {}))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("pattern has a")
                        .hasMessageContaining(pattern);
            }
        }

        @ParameterizedTest
        @ValueSource(strings = {"a[]b*", "a[^]*", "[a-z]*", "[[]*", "[a-]]*", "[^-]*", "*"})
        void closedSets_areAccepted(String pattern) {
            try (RedisBroadcaster<String> b = strings(Channels.unique("closed"))) {
                b.subscribePattern(pattern, (c, m) -> {}).close();
            }
        }

        @Test
        void aChannelTheGlobMatches_butNoBroadcasterCouldHave_isNotDelivered() {
            String prefix = Channels.unique("ns");
            try (RedisBroadcaster<String> a1 = RedisBroadcaster.builder(client, "a1", Codec.utf8())
                    .keyPrefix(prefix)
                    .build()) {
                List<String> got = new CopyOnWriteArrayList<>();
                a1.subscribePattern("a*", (channel, m) -> got.add(channel + "=" + m));

                // other clients' channels that "<prefix>:{a*}" matches, none of them a broadcaster's
                assertThat(client.publish(prefix + ":{a}b}", "brace in the name"))
                        .isEqualTo(1);
                assertThat(client.publish(prefix + ":{a b}", "space in the name"))
                        .isEqualTo(1);
                assertThat(client.publish(prefix + ":{a}:{b}", "two hash tags")).isEqualTo(1);
                assertThat(client.publish(prefix + ":{a" + "x".repeat(100) + "}", "name too long"))
                        .isEqualTo(1);
                assertThat(a1.publish("mine")).isEqualTo(1);

                await().atMost(WAIT).until(() -> got.contains("a1=mine"));
                assertThat(got).containsExactly("a1=mine");
            }
        }
    }

    @Nested
    @DisplayName("bad input is refused with a clear exception before anything is sent")
    class BadInput {

        @Test
        void nulls_areRefused() {
            try (RedisBroadcaster<String> b = strings(Channels.unique("nulls"))) {
                assertThatThrownBy(() -> b.publish(null))
                        .isInstanceOf(NullPointerException.class)
                        .hasMessageContaining("message");
                assertThatThrownBy(() -> b.subscribe(null)).isInstanceOf(NullPointerException.class);
                assertThatThrownBy(() -> b.subscribePattern("a*", null)).isInstanceOf(NullPointerException.class);
                assertThatThrownBy(() -> b.subscribePattern(null, (c, m) -> {}))
                        .isInstanceOf(NullPointerException.class);
                assertThatThrownBy(() -> b.publishAll(Arrays.asList("a", null)))
                        .isInstanceOf(NullPointerException.class)
                        .hasMessageContaining("index 1");
            }
            assertThatThrownBy(() -> RedisBroadcaster.builder(null, "c", Codec.utf8()))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("client");
            assertThatThrownBy(() -> RedisBroadcaster.builder(client, null, Codec.utf8()))
                    .isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> RedisBroadcaster.builder(client, "c", null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("codec");
        }

        @Test
        void oversizePayload_isRefused_andNothingIsPublished() {
            try (RedisBroadcaster<byte[]> b = RedisBroadcaster.builder(client, Channels.unique("big"), Codec.bytes())
                    .build()) {
                List<byte[]> got = new CopyOnWriteArrayList<>();
                b.subscribe(got::add);
                assertThatThrownBy(() -> b.publish(new byte[(1 << 20) + 1]))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("1048577 bytes")
                        .hasMessageContaining("limit of 1048576")
                        .hasMessageContaining("maxPayloadBytes");
                assertThatThrownBy(() -> b.publishAll(List.of(new byte[1], new byte[(1 << 20) + 1])))
                        .isInstanceOf(IllegalArgumentException.class);
                assertThat(b.publish(new byte[1 << 20])).isEqualTo(1);
                await().atMost(WAIT).until(() -> got.size() == 1);
                assertThat(got.get(0)).hasSize(1 << 20);
            }
            try (RedisBroadcaster<String> small = RedisBroadcaster.builder(
                            client, Channels.unique("small"), Codec.utf8())
                    .maxPayloadBytes(4)
                    .build()) {
                assertThat(small.publish("four")).isZero();
                assertThatThrownBy(() -> small.publish("five!"))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("limit of 4");
            }
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "has space", "brace{", "brace}", "slash/", "star*", "tab\t"})
        void invalidChannelNames_areRefused(String name) {
            assertThatThrownBy(() -> RedisBroadcaster.builder(client, name, Codec.utf8()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("name");
        }

        @Test
        void tooLongChannelName_isRefused() {
            assertThatThrownBy(() -> RedisBroadcaster.builder(client, "x".repeat(101), Codec.utf8()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1 to 100");
            assertThat(RedisBroadcaster.builder(client, "x".repeat(100), Codec.utf8())
                            .build()
                            .name())
                    .hasSize(100);
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "a{b", "a}", "a b", "a\\*", "a/b"})
        void invalidPatterns_areRefused(String pattern) {
            assertThatThrownBy(() -> io.queuekit.redis.pubsub.Patterns.checkPattern("x".repeat(101)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1 to 100");
            try (RedisBroadcaster<String> b = strings(Channels.unique("patterns"))) {
                assertThatThrownBy(() -> b.subscribePattern(pattern, (c, m) -> {}))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("pattern");
            }
        }

        @Test
        void builderSettings_areValidatedEagerly() {
            RedisBroadcaster.Builder<String> b = RedisBroadcaster.builder(client, "c", Codec.utf8());
            assertThatThrownBy(() -> b.keyPrefix("a{b}"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("keyPrefix");
            assertThatThrownBy(() -> b.maxPayloadBytes(0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("maxPayloadBytes");
            assertThatThrownBy(() -> b.maxPayloadBytes((256 << 20) + 1))
                    .as("the queues' ceiling, 256 MiB")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("256 MiB");
            assertThatThrownBy(() -> b.subscribeTimeout(Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("subscribeTimeout must be 1 ms to 1 h: PT0S");
            assertThatThrownBy(() -> b.reconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("max reconnect backoff");
            assertThatThrownBy(() -> b.bufferCapacity(0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> b.bufferBytes(0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("bufferBytes must be 1 to 1073741824: 0");
            assertThatThrownBy(() -> b.keepAliveInterval(Duration.ofSeconds(-1)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> b.onGap(null)).isInstanceOf(NullPointerException.class);
        }
    }

    @Nested
    @DisplayName("semantics, naming and close")
    class Lifecycle {

        @Test
        void semantics_areAtMostOnceFanOutInPublishOrder() {
            try (RedisBroadcaster<String> b = strings(Channels.unique("semantics"))) {
                assertThat(b.semantics())
                        .isEqualTo(new Semantics(
                                "redis-pubsub",
                                Semantics.Guarantee.AT_MOST_ONCE,
                                Semantics.Ordering.PUBLISH_ORDER,
                                false,
                                true,
                                false));
            }
        }

        @Test
        void channelKey_putsTheNameInAHashTag() {
            try (RedisBroadcaster<String> b = strings("orders");
                    RedisBroadcaster<String> c = RedisBroadcaster.builder(client, "orders", Codec.utf8())
                            .keyPrefix("app")
                            .build()) {
                assertThat(b.channelKey()).isEqualTo("queuekit:{orders}");
                assertThat(c.channelKey()).isEqualTo("app:{orders}");
            }
        }

        @Test
        void close_endsEverySubscription_isIdempotent_andLaterCallsThrow() {
            String channel = Channels.unique("close");
            RedisBroadcaster<String> b = strings(channel);
            RedisSubscription s1 = b.subscribe(m -> {});
            RedisSubscription s2 = b.subscribePattern(channel, (c, m) -> {});
            assertThat(b.publish("x")).isEqualTo(2);

            b.close();
            b.close();

            assertThat(s1.isActive()).isFalse();
            assertThat(s2.isActive()).isFalse();
            assertThat(s1.isConnected()).isFalse();
            assertThat(threadAlive("queuekit-" + channel + "-")).isFalse();
            assertThat(client.publish(b.channelKey(), "nobody left")).isZero();
            assertThatThrownBy(() -> b.publish("y"))
                    .isInstanceOf(QueueClosedException.class)
                    .hasMessageContaining(channel);
            assertThatThrownBy(() -> b.subscribe(m -> {})).isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> b.subscribePattern("a*", (c, m) -> {})).isInstanceOf(QueueClosedException.class);
            assertThatThrownBy(() -> b.publishAll(List.of("z"))).isInstanceOf(QueueClosedException.class);
            s1.close();
        }

        @Test
        void closingOneSubscription_leavesTheOthers_andReturnsItsConnection() {
            try (RedisBroadcaster<String> b = strings(Channels.unique("closeone"))) {
                int activeBefore = client.getPool().getNumActive();
                List<String> got = new CopyOnWriteArrayList<>();
                RedisSubscription s1 = b.subscribe(m -> {});
                b.subscribe(got::add);
                s1.close();
                s1.close();
                assertThat(s1.isActive()).isFalse();
                assertThat(b.publish("still here")).isEqualTo(1);
                await().atMost(WAIT).until(() -> got.size() == 1);
                assertThat(client.getPool().getNumActive()).isEqualTo(activeBefore + 1);
            }
        }

        @Test
        void aClosedSubscriptionsConnection_goesBackToThePoolAsItWasLent() {
            ConnectionPoolConfig one = new ConnectionPoolConfig();
            one.setMaxTotal(1);
            one.setMaxWait(Duration.ofSeconds(5));
            try (RedisClient small = RedisClients.builder(server)
                            .timeouts(Duration.ofMillis(700))
                            .build();
                    RedisClient single = RedisClients.builder(server).pool(one).build();
                    RedisBroadcaster<String> b = RedisBroadcaster.builder(small, Channels.unique("lent"), Codec.utf8())
                            .build();
                    RedisBroadcaster<String> c = RedisBroadcaster.builder(single, Channels.unique("lent"), Codec.utf8())
                            .build()) {
                b.subscribe(m -> {}).close();
                try (Connection lent = small.getPool().getResource()) {
                    assertThat(lent.getSoTimeout())
                            .as("the socket timeout it was lent with")
                            .isEqualTo(700);
                    assertThat(lent.ping()).isTrue();
                }
                // with a pool of one, the same connection serves a subscription, a publish, another subscription
                c.subscribe(m -> {}).close();
                assertThat(c.publish("x")).isZero();
                List<String> got = new CopyOnWriteArrayList<>();
                c.subscribe(got::add);
                assertThat(single.getPool().getCreatedCount()).isEqualTo(1);
                assertThat(single.getPool().getDestroyedCount()).isZero();
            }
        }

        @Test
        void publishAll_publishesInOrder_andReportsReceiversEach() {
            try (RedisBroadcaster<String> b = strings(Channels.unique("all"))) {
                List<String> got = Collections.synchronizedList(new ArrayList<>());
                b.subscribe(got::add);
                b.subscribe(m -> {});
                List<String> all =
                        IntStream.range(0, 500).mapToObj(i -> "m" + i).toList();
                long[] receivers = b.publishAll(all);
                assertThat(receivers).hasSize(500).containsOnly(2L);
                assertThat(b.publishAll(List.of())).isEmpty();
                await().atMost(WAIT).until(() -> got.size() == 500);
                assertThat(got).containsExactlyElementsOf(all);
            }
        }
    }

    static boolean threadAlive(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().startsWith(prefix));
    }
}

package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Codec;
import io.queuekit.Headers;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.spi.MessageObservations;
import io.queuekit.testing.RedisServerTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.RedisClient;

/**
 * Headers on Redis PUB/SUB: framed in front of the published bytes only when there are any, read
 * back exactly, and refused before anything is published.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class RedisBroadcasterHeadersTest {
    private static final long WAIT_SECONDS = 10;
    private static final Headers HEADERS = Headers.of(
                    "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
            .with("Tenant", "ünïcode ✓ 🚀")
            .with("empty", "")
            .with("note", "a:b 12: \n\0");

    private final RedisClient client;

    RedisBroadcasterHeadersTest(RedisClient client) {
        this.client = client;
    }

    private RedisBroadcaster<String> strings(String what) {
        return RedisBroadcaster.builder(client, Channels.unique(what), Codec.utf8())
                .build();
    }

    private static <T> T next(BlockingQueue<T> q) throws InterruptedException {
        T t = q.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(t).as("received within %d s", WAIT_SECONDS).isNotNull();
        return t;
    }

    @Test
    void headersPublished_reachASubscribeWithHeadersListener_exactlyAsGiven_andPlainListenersGetTheMessage()
            throws Exception {
        BlockingQueue<Map.Entry<String, Headers>> got = new LinkedBlockingQueue<>();
        BlockingQueue<String> plain = new LinkedBlockingQueue<>();
        try (RedisBroadcaster<String> b = strings("headers")) {
            b.subscribeWithHeaders((m, h) -> got.add(Map.entry(m, h)));
            b.subscribe(plain::add);

            assertThat(b.publish("one", HEADERS)).isEqualTo(2);
            b.publish("two");
            b.publishAll(List.of("three"));

            Map.Entry<String, Headers> one = next(got);
            assertThat(one.getKey()).isEqualTo("one");
            assertThat(one.getValue()).isEqualTo(HEADERS);
            assertThat(List.copyOf(one.getValue().asMap().keySet()))
                    .containsExactly("traceparent", "Tenant", "empty", "note");
            assertThat(next(got)).isEqualTo(Map.entry("two", Headers.empty()));
            assertThat(next(got)).isEqualTo(Map.entry("three", Headers.empty()));
            assertThat(List.of(next(plain), next(plain), next(plain))).containsExactly("one", "two", "three");
        }
    }

    @Test
    void aPayloadThatBeginsLikeAFrame_roundTripsUnchanged_withHeadersAndWithout() throws Exception {
        byte[] lookalike = {0, 'q', 'k', 'h', '3', ':', 'x', -1};
        byte[] prefixOnly = {0, 'q', 'k', 'h'};
        BlockingQueue<Map.Entry<byte[], Headers>> got = new LinkedBlockingQueue<>();
        try (RedisBroadcaster<byte[]> b = RedisBroadcaster.builder(client, Channels.unique("lookalike"), Codec.bytes())
                .build()) {
            b.subscribeWithHeaders((m, h) -> got.add(Map.entry(m, h)));

            b.publish(lookalike);
            b.publish(lookalike, HEADERS);
            b.publishAll(List.of(prefixOnly, new byte[] {0, 'q'}));

            Map.Entry<byte[], Headers> plain = next(got);
            assertThat(plain.getKey()).containsExactly(lookalike);
            assertThat(plain.getValue()).isEqualTo(Headers.empty());
            Map.Entry<byte[], Headers> headed = next(got);
            assertThat(headed.getKey()).containsExactly(lookalike);
            assertThat(headed.getValue()).isEqualTo(HEADERS);
            assertThat(next(got).getKey()).containsExactly(prefixOnly);
            assertThat(next(got).getKey()).containsExactly(0, 'q');
            assertThat(b.decodeFailures()).isZero();
        }
    }

    @Test
    void onTheWire_aMessageWithoutHeadersIsItsEncodedBytes_andOneWithHeadersIsFramed() throws Exception {
        BlockingQueue<byte[]> raw = new LinkedBlockingQueue<>();
        CountDownLatch subscribed = new CountDownLatch(1);
        BinaryJedisPubSub peer = new BinaryJedisPubSub() {
            @Override
            public void onMessage(byte[] channel, byte[] message) {
                raw.add(message);
            }

            @Override
            public void onSubscribe(byte[] channel, int subscribedChannels) {
                subscribed.countDown();
            }
        };
        try (RedisBroadcaster<String> b = strings("wire")) {
            Thread reader = new Thread(
                    () -> client.subscribe(peer, b.channelKey().getBytes(StandardCharsets.UTF_8)), "test-raw-peer");
            reader.setDaemon(true);
            reader.start();
            try {
                assertThat(subscribed.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

                b.publish("plain");
                b.publish("framed", Headers.of("k", "v"));

                assertThat(next(raw)).containsExactly(bytes("plain"));
                // magic, block length, then per header name length, name, value length, value
                assertThat(next(raw)).containsExactly(bytes("\0qkh6:1:k1:vframed"));
            } finally {
                if (peer.isSubscribed()) {
                    peer.unsubscribe();
                }
                reader.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            }
        }
    }

    @Test
    void messagesFromAnotherClient_arriveWithoutHeaders_andAMalformedFrameIsADecodeFailure() throws Exception {
        BlockingQueue<Map.Entry<String, Headers>> got = new LinkedBlockingQueue<>();
        try (RedisBroadcaster<String> b = strings("foreign")) {
            b.subscribeWithHeaders((m, h) -> got.add(Map.entry(m, h)));
            byte[] channel = b.channelKey().getBytes(StandardCharsets.UTF_8);

            client.publish(channel, bytes("from elsewhere"));
            client.publish(channel, bytes("\0qkh99:1:k"));
            client.publish(channel, bytes("\0qkh6:1:k1:vframed elsewhere"));

            assertThat(next(got)).isEqualTo(Map.entry("from elsewhere", Headers.empty()));
            assertThat(next(got)).isEqualTo(Map.entry("framed elsewhere", Headers.of("k", "v")));
            assertThat(b.decodeFailures()).isEqualTo(1);
        }
    }

    @Test
    void aPatternSubscription_withHeaders_getsTheChannelTheMessageAndItsHeaders() throws Exception {
        BlockingQueue<String> got = new LinkedBlockingQueue<>();
        try (RedisBroadcaster<String> b = strings("pattern")) {
            try (RedisSubscription s = b.subscribePatternWithHeaders(
                    b.name(), (channel, m, h) -> got.add(channel + " " + m + " " + h.get("Tenant")))) {
                b.publish("one", HEADERS);
                b.publish("two");

                assertThat(next(got)).isEqualTo(b.name() + " one ünïcode ✓ 🚀");
                assertThat(next(got)).isEqualTo(b.name() + " two null");
            }
            assertThatThrownBy(() -> b.subscribePatternWithHeaders("a*", null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("listener");
        }
    }

    /** Adds {@code adds} to every publish, and notes each publish and each handling. */
    private static final class Recording implements MessageObservations {
        final List<String> sends = new CopyOnWriteArrayList<>();
        final List<Headers> handled = new CopyOnWriteArrayList<>();
        private final Headers adds;

        Recording(Headers adds) {
            this.adds = adds;
        }

        @Override
        public <R> R sending(Destination destination, int count, Send<R> send) {
            sends.add(destination.kind() + " " + destination.name() + " " + destination.transport() + " x" + count);
            return send.send(adds);
        }

        @Override
        public void handling(Destination destination, Headers headers, Handling handling) throws Exception {
            handled.add(headers);
            handling.run();
        }
    }

    @Test
    void observations_addTheirHeadersToEveryPublish_andSeeEveryHandling() throws Exception {
        Headers trace = Headers.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        Recording observations = new Recording(trace);
        BlockingQueue<Map.Entry<String, Headers>> got = new LinkedBlockingQueue<>();
        String channel = Channels.unique("observed");
        try (RedisBroadcaster<String> b = RedisBroadcaster.builder(client, channel, Codec.utf8())
                .observations(observations)
                .build()) {
            b.subscribeWithHeaders((m, h) -> got.add(Map.entry(m, h)));

            b.publish("one", Headers.of("tenant", "a"));
            b.publishAll(List.of("two", "three"));
            b.publishAll(List.of());

            assertThat(next(got))
                    .isEqualTo(Map.entry("one", Headers.of("tenant", "a").withAll(trace)));
            assertThat(next(got)).isEqualTo(Map.entry("two", trace));
            assertThat(next(got)).isEqualTo(Map.entry("three", trace));
            assertThat(observations.sends)
                    .containsExactly(
                            "BROADCAST " + channel + " redis-pubsub x1", "BROADCAST " + channel + " redis-pubsub x2");
            assertThat(observations.handled)
                    .containsExactly(Headers.of("tenant", "a").withAll(trace), trace, trace);
        }
    }

    @Test
    void headersRefusedOnceTheObservationsAddTheirs_orAPayloadOverTheLimit_publishNothing() throws Exception {
        Headers big = Headers.of("big", "x".repeat(Headers.MAX_BYTES - 20));
        BlockingQueue<String> got = new LinkedBlockingQueue<>();
        try (RedisBroadcaster<String> b = RedisBroadcaster.builder(client, Channels.unique("refused"), Codec.utf8())
                .maxPayloadBytes(5)
                .observations(new Recording(big))
                .build()) {
            b.subscribe(got::add);
            Headers mine = Headers.of("mine", "y".repeat(100));

            assertThatThrownBy(() -> b.publish("a", mine))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("over the limit of " + Headers.MAX_BYTES);
            assertThatThrownBy(() -> b.publish("b", null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("headers");
            assertThatThrownBy(() -> b.publish("123456"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("above the limit of 5 bytes");
            // the headers, near their own limit, do not count against maxPayloadBytes
            assertThat(b.publish("12345", Headers.of("k", "v"))).isEqualTo(1);

            // published in order: had a refused one gone out, it would have arrived first
            assertThat(next(got)).as("the first message to arrive").isEqualTo("12345");
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

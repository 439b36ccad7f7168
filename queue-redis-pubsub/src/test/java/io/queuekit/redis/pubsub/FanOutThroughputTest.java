package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisServerTest;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * Every subscriber receives every message in publish order under load. The rate is printed, not
 * asserted: speed is measured in the benchmark module.
 */
@RedisServerTest
class FanOutThroughputTest {
    private static final int MESSAGES = 200_000;
    private static final int SUBSCRIBERS = 3;
    private static final int BATCH = 1_000;

    /** A message is its sequence number as 4 bytes: cheap to encode and to check. */
    private static final Codec<Integer> SEQUENCE = new Codec<>() {
        @Override
        public byte[] encode(Integer payload) {
            return ByteBuffer.allocate(4).putInt(payload).array();
        }

        @Override
        public Integer decode(byte[] bytes) {
            return ByteBuffer.wrap(bytes).getInt();
        }
    };

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void threeSubscribers_eachReceiveAll200kMessages_inPublishOrder(RedisClient client) {
        try (RedisBroadcaster<Integer> b = RedisBroadcaster.builder(client, Channels.unique("fanout"), SEQUENCE)
                .build()) {
            List<AtomicInteger> next = new ArrayList<>();
            AtomicReference<String> outOfOrder = new AtomicReference<>();
            List<RedisSubscription> subs = new ArrayList<>();
            for (int i = 0; i < SUBSCRIBERS; i++) {
                AtomicInteger expected = new AtomicInteger();
                next.add(expected);
                int subscriber = i;
                subs.add(b.subscribe(seq -> {
                    int want = expected.get();
                    if (seq != want) {
                        outOfOrder.compareAndSet(
                                null, "subscriber " + subscriber + " got " + seq + " expecting " + want);
                    }
                    expected.set(seq + 1);
                }));
            }

            long start = System.nanoTime();
            List<Integer> batch = new ArrayList<>(BATCH);
            for (int seq = 0; seq < MESSAGES; seq++) {
                batch.add(seq);
                if (batch.size() == BATCH) {
                    long[] receivers = b.publishAll(batch);
                    assertThat(receivers[0]).isEqualTo(SUBSCRIBERS);
                    batch.clear();
                }
            }
            long published = System.nanoTime();
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> outOfOrder.get() != null || next.stream().allMatch(n -> n.get() == MESSAGES));
            long received = System.nanoTime();

            assertThat(outOfOrder.get()).isNull();
            assertThat(next).allSatisfy(n -> assertThat(n.get()).isEqualTo(MESSAGES));
            assertThat(subs).allSatisfy(s -> assertThat(s.reconnects()).isZero());
            double publishSeconds = (published - start) / 1e9;
            double totalSeconds = (received - start) / 1e9;
            System.out.printf(
                    "fan-out: %,d messages to %d subscribers: published in %.2f s (%,.0f msg/s), "
                            + "all received in %.2f s (%,.0f msg/s per subscriber, %,.0f deliveries/s)%n",
                    MESSAGES,
                    SUBSCRIBERS,
                    publishSeconds,
                    MESSAGES / publishSeconds,
                    totalSeconds,
                    MESSAGES / totalSeconds,
                    MESSAGES * (double) SUBSCRIBERS / totalSeconds);
        }
    }
}

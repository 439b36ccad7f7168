package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.redis.pubsub.RedisBroadcaster.GapEvent;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * A listener that falls behind makes its buffer fill, the reading thread stop, and Redis cut the
 * connection at its client-output-buffer-limit; the subscription comes back and reports the gap.
 */
class SlowListenerTest {
    private static final int MESSAGE_BYTES = 4096;
    /** Far more than the kernel's socket buffers plus the server's limit can hold. */
    private static final int MAX_MESSAGES = 50_000;

    /** A message is its sequence number padded to MESSAGE_BYTES, so that the backlog grows quickly. */
    private static final Codec<Integer> PADDED = new Codec<>() {
        @Override
        public byte[] encode(Integer payload) {
            return ByteBuffer.allocate(MESSAGE_BYTES).putInt(payload).array();
        }

        @Override
        public Integer decode(byte[] bytes) {
            return ByteBuffer.wrap(bytes).getInt();
        }
    };

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void listenerTooSlow_redisCutsTheConnection_subscriptionComesBackAndReportsTheGap() throws Exception {
        List<Integer> got = new CopyOnWriteArrayList<>();
        List<GapEvent> gaps = new CopyOnWriteArrayList<>();
        try (RedisServer server = RedisServer.builder()
                     .config("client-output-buffer-limit", "pubsub 256kb 128kb 1")
                     .start();
             RedisClient client = RedisClients.create(server);
             RedisBroadcaster<Integer> b = RedisBroadcaster.builder(client, "slow", PADDED)
                     .bufferCapacity(8)
                     .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(200))
                     .onGap(gaps::add)
                     .build()) {
            CountDownLatch release = new CountDownLatch(1);
            RedisSubscription s = b.subscribe(seq -> {
                release.await();
                got.add(seq);
            });

            // publish until Redis has dropped the subscriber: PUBLISH then counts no receiver
            int seq = 0;
            long receivers = 1;
            while (receivers > 0 && seq < MAX_MESSAGES) {
                List<Integer> batch = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    batch.add(seq++);
                }
                long[] counts = b.publishAll(batch);
                receivers = counts[counts.length - 1];
            }
            assertThat(receivers).as("Redis cut the slow subscriber after %d messages", seq).isZero();
            int published = seq;

            release.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> s.reconnects() == 1 && gaps.size() == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> b.publish(-1) == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains(-1));

            // what arrived before the gap is a contiguous run from the start, in order; the rest was lost
            List<Integer> beforeGap = got.subList(0, got.indexOf(-1));
            assertThat(beforeGap).isNotEmpty();
            for (int i = 0; i < beforeGap.size(); i++) {
                assertThat(beforeGap.get(i)).isEqualTo(i);
            }
            assertThat(beforeGap.size()).isLessThan(published);
            assertThat(s.isActive()).isTrue();
            assertThat(b.reconnects()).isEqualTo(1);
            System.out.printf("slow listener: cut after %,d of %,d messages of %d bytes were read; gap of %s%n",
                    beforeGap.size(), published, MESSAGE_BYTES, gaps.get(0).duration());
        }
    }

    /**
     * The buffer between the reading thread and a slow listener is bounded by bytes, not only by
     * message count: 1 MiB messages stop the reading at the byte bound (8 MiB by default), far
     * below the 1024 messages the count would allow, and the rest wait in Redis.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void bigMessages_fillTheBufferOnlyUpToItsByteBound_andArriveInOrderOnceTheListenerCatchesUp() throws Exception {
        int mib = 1 << 20;
        long byteBound = 8L * mib; // RedisBroadcaster's default bufferBytes
        int count = 40;
        try (RedisServer server = RedisServer.builder()
                     .config("client-output-buffer-limit", "pubsub 0 0 0") // Redis holds any backlog
                     .start();
             RedisClient client = RedisClients.create(server);
             RedisBroadcaster<byte[]> b = RedisBroadcaster.builder(client, "heavy", Codec.bytes()).build()) {
            CountDownLatch release = new CountDownLatch(1);
            List<Integer> got = new CopyOnWriteArrayList<>();
            RedisSubscription s = b.subscribe(m -> {
                release.await();
                got.add(ByteBuffer.wrap(m).getInt());
            });
            for (int i = 0; i < count; i++) {
                assertThat(b.publish(ByteBuffer.allocate(mib).putInt(i).array())).isEqualTo(1);
            }

            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> s.bufferedBytes() >= byteBound / 2);
                await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(10))
                        .until(() -> s.bufferedBytes() <= byteBound);
            } finally {
                release.countDown();
            }

            await().atMost(Duration.ofSeconds(30)).until(() -> got.size() == count);
            assertThat(got).isEqualTo(IntStream.range(0, count).boxed().toList());
            assertThat(s.reconnects()).isZero();
        }
    }
}

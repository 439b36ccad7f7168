package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.redis.pubsub.RedisBroadcaster.GapEvent;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;
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
            assertThat(receivers)
                    .as("Redis cut the slow subscriber after %d messages", seq)
                    .isZero();
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
            System.out.printf(
                    "slow listener: cut after %,d of %,d messages of %d bytes were read; gap of %s%n",
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
                RedisBroadcaster<byte[]> b =
                        RedisBroadcaster.builder(client, "heavy", Codec.bytes()).build()) {
            CountDownLatch release = new CountDownLatch(1);
            List<Integer> got = new CopyOnWriteArrayList<>();
            RedisSubscription s = b.subscribe(m -> {
                release.await();
                got.add(ByteBuffer.wrap(m).getInt());
            });
            for (int i = 0; i < count; i++) {
                assertThat(b.publish(ByteBuffer.allocate(mib).putInt(i).array()))
                        .isEqualTo(1);
            }

            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> s.bufferedBytes() >= byteBound / 2);
                await().during(Duration.ofSeconds(1))
                        .atMost(Duration.ofSeconds(10))
                        .until(() -> s.bufferedBytes() <= byteBound);
            } finally {
                release.countDown();
            }

            await().atMost(Duration.ofSeconds(30)).until(() -> got.size() == count);
            assertThat(got).isEqualTo(IntStream.range(0, count).boxed().toList());
            assertThat(s.reconnects()).isZero();
        }
    }

    /**
     * Everything a subscription holds for its listener counts against {@code bufferBytes}: the
     * messages its listener's thread has taken out of the buffer to work through as well as those
     * still in it. Measured from outside: what Redis has written to the subscriber's socket, less
     * what the kernel's socket buffers can hold, is a floor on what the JVM has read.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aSlowListener_holdsAtMostBufferBytes_countingTheMessagesTakenOutToWorkThrough() throws Exception {
        int mib = 1 << 20;
        int message = 4 * mib;
        int bound = 64 * mib;
        long kernel = kernelSocketBufferBytes();
        // before the bound counted them, the batch taken out added up to bound - message more
        Assumptions.assumeTrue(
                kernel < bound - 2L * message,
                "the kernel's socket buffers (" + kernel + " bytes) would hide what this test measures");
        int count = bound / message * 3;
        try (RedisServer server = RedisServer.builder()
                        .config("client-output-buffer-limit", "pubsub 0 0 0") // Redis holds any backlog
                        .start();
                RedisClient client = RedisClients.create(server);
                Jedis admin = new Jedis(server.host(), server.port());
                RedisBroadcaster<byte[]> b = RedisBroadcaster.builder(client, "held", Codec.bytes())
                        .maxPayloadBytes(message)
                        .bufferBytes(bound)
                        .build()) {
            AtomicReference<RedisSubscription> sub = new AtomicReference<>();
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<Integer> got = new CopyOnWriteArrayList<>();
            long writtenBefore = netOutputBytes(admin);
            sub.set(b.subscribe(m -> {
                int seq = ByteBuffer.wrap(m).getInt();
                got.add(seq);
                if (seq == 0) {
                    // the first returns once the buffer is full, so the next takes out a full one
                    await().atMost(Duration.ofSeconds(30)).until(() -> sub.get().bufferedBytes() >= bound - message);
                } else if (seq == 1) {
                    holding.countDown();
                    release.await();
                }
            }));
            for (int i = 0; i < count; i++) {
                b.publish(ByteBuffer.allocate(message).putInt(i).array());
            }

            long written;
            try {
                assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
                // Redis stops writing once the subscription stopped reading and the kernel's buffers are
                // full; each look adds the INFO reply to what it wrote
                AtomicLong last = new AtomicLong(-mib);
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> {
                            long now = netOutputBytes(admin);
                            return now - last.getAndSet(now) < 64 << 10;
                        });
                written = last.get() - writtenBefore;
            } finally {
                release.countDown();
            }

            // read at least: what Redis wrote, less the kernel's buffers and some bytes of framing and replies
            long readAtLeast = written - kernel - mib;
            // may hold: the bound, and besides it the message handled, the one in the listener's hands and
            // the one the reading thread waits to put in the buffer
            long mayHold = bound + 3L * message;
            System.out.printf(
                    "slow listener with bufferBytes %d MiB: Redis wrote %d MiB, so the JVM read at least "
                            + "%d MiB (kernel socket buffers up to %d MiB)%n",
                    bound / mib, written / mib, readAtLeast / mib, kernel / mib);
            assertThat(readAtLeast).as("bytes read from Redis, at least").isLessThanOrEqualTo(mayHold);
            await().atMost(Duration.ofSeconds(60)).until(() -> got.size() == count);
            assertThat(got).isEqualTo(IntStream.range(0, count).boxed().toList());
        }
    }

    private static long netOutputBytes(Jedis admin) {
        String info = admin.info("stats");
        int at = info.indexOf("total_net_output_bytes:") + "total_net_output_bytes:".length();
        return Long.parseLong(info.substring(at, info.indexOf('\r', at)));
    }

    /** The most a loopback connection's send and receive buffers can hold together (Linux). */
    private static long kernelSocketBufferBytes() {
        try {
            return maxOf(Path.of("/proc/sys/net/ipv4/tcp_rmem")) + maxOf(Path.of("/proc/sys/net/ipv4/tcp_wmem"));
        } catch (IOException | RuntimeException e) {
            Assumptions.abort("cannot read the kernel's socket buffer limits: " + e);
            return 0;
        }
    }

    private static long maxOf(Path limits) throws IOException {
        String[] fields = String.join(" ", Files.readAllLines(limits)).trim().split("\\s+");
        return Long.parseLong(fields[fields.length - 1]);
    }
}

package io.queuekit.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.redis.pubsub.RedisBroadcaster.GapEvent;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.args.ClientPauseMode;

/**
 * A subscribed connection that stops answering is replaced within the bound that follows from the
 * keep-alive interval, even with a client that would wait on it forever (Jedis's default blocking
 * timeout of 0). {@code CLIENT PAUSE ... ALL} makes Redis hold every command, the keep-alive
 * included, while the connection stays open: to the subscriber it is a connection that went silent.
 * Runs alone, as it bounds how late the keep-alive thread may run.
 */
@Isolated
class DeadConnectionTest {
    private static final Duration KEEP_ALIVE = Duration.ofMillis(100);
    /** What RedisBroadcaster promises: the interval, plus as much again but at least 2 s. */
    private static final Duration DEAD_AFTER = KEEP_ALIVE.plusSeconds(2);

    private static final Duration PAUSE = Duration.ofSeconds(4);
    /** How late the keep-alive thread may run on a loaded machine (seen: 8 ms at a load of 4). */
    private static final Duration LATE_KEEP_ALIVE = Duration.ofMillis(200);

    @ParameterizedTest
    @EnumSource(RedisProtocol.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void silentConnection_isReplacedWithinTheKeepAliveBound_andTheGapIsReported(RedisProtocol protocol) {
        List<GapEvent> gaps = new CopyOnWriteArrayList<>();
        List<String> got = new CopyOnWriteArrayList<>();
        try (RedisServer server = RedisServer.builder().start();
                RedisClient client = RedisClients.builder(server)
                        .protocol(protocol)
                        .blockingSocketTimeout(Duration.ZERO)
                        .build(); // Jedis' default: reads wait forever
                RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "silent", Codec.utf8())
                        .keepAliveInterval(KEEP_ALIVE)
                        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200))
                        .onGap(gaps::add)
                        .build()) {
            RedisSubscription s = b.subscribe(got::add);
            b.publish("before");
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("before"));

            long pausedAt = System.nanoTime();
            try (Jedis admin = new Jedis(server.host(), server.port())) {
                admin.clientPause(PAUSE.toMillis(), ClientPauseMode.ALL);
            }

            // noticed while Redis still holds every command: the pause, not its end, ends the connection
            await().atMost(PAUSE.minusMillis(200))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> !s.isConnected());
            long noticedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pausedAt);
            // the read timeout runs from the last byte read, a keep-alive answer at most one interval
            // before the pause, or a little more when a loaded machine runs the keep-alive late
            assertThat(noticedMillis)
                    .as("ms until the silent connection was given up")
                    .isGreaterThanOrEqualTo(DEAD_AFTER.toMillis() - KEEP_ALIVE.toMillis() - LATE_KEEP_ALIVE.toMillis());

            await().atMost(Duration.ofSeconds(20)).until(() -> gaps.size() == 1);
            assertThat(causes(gaps.get(0).cause())).anyMatch(c -> c instanceof SocketTimeoutException);
            await().atMost(Duration.ofSeconds(10)).until(() -> b.publish("after") == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("after"));
            assertThat(s.reconnects()).isEqualTo(1);
        }
    }

    private static List<Throwable> causes(Throwable t) {
        List<Throwable> all = new CopyOnWriteArrayList<>();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.add(c);
        }
        return all;
    }
}

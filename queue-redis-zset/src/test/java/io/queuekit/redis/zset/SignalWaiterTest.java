package io.queuekit.redis.zset;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * How the consumers of one queue object share the watching of due times ({@link SignalWaiter}):
 * one watches each, and one replaced by another that will claim sooner stands down for no longer
 * than a tick past its own due time. The due times are values on the server's clock that the
 * waiter only compares.
 */
@Timeout(value = 60, unit = SECONDS)
@RedisServerTest(server = PER_CLASS)
class SignalWaiterTest {
    /** The longest a test's waits could last: were a consumer to wait for all of it, it would show. */
    private static final long PATIENCE_MILLIS = 9_000;
    /** A wait of this long is slept (parked) whole: too short to block in Redis for all but a tick. */
    private static final long SHORT_MILLIS = SignalWaiter.TICK_MILLIS + 5;
    private static final long EVENT = 1_000_000;

    private static RedisClient client;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeAll
    static void connect(RedisServer server) {
        client = RedisClients.builder(server).blockingSocketTimeout(Duration.ofSeconds(15)).build();
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    /** Waits until {@code w}'s timekeeper watches {@code event}, checking often: a watch lasts ~100 ms. */
    private static void awaitWatching(SignalWaiter w, long event) {
        await().atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> w.watchedEventMillis() == event);
    }

    private static SignalWaiter waiter() {
        return new SignalWaiter(client, "signal-" + UUID.randomUUID(), 10_000);
    }

    @Test
    void aConsumerWaitingForTheSameDueTime_asTheWatcher_waitsForAWakeUp_andDoesNotClaimIt() throws Exception {
        for (int attempt = 1; ; attempt++) {
            SignalWaiter w = waiter();
            AtomicLong watcherAt = new AtomicLong();
            AtomicLong otherAt = new AtomicLong();
            Future<Long> watcher = threads.submit(() -> {
                watcherAt.set(System.nanoTime());
                return w.await(SHORT_MILLIS, PATIENCE_MILLIS, EVENT);
            });
            awaitWatching(w, EVENT);
            // its estimate of the server's clock lags the watcher's: it counts down for longer
            Future<Long> other = threads.submit(() -> {
                otherAt.set(System.nanoTime());
                return w.await(2 * SHORT_MILLIS, 1_000, EVENT);
            });

            long watcherGot = watcher.get(5, SECONDS);
            long otherGot = other.get(5, SECONDS);
            // the other must come while the watcher still watches: not so if a stalled host
            // started it over half the watcher's wait late
            boolean inTime = otherAt.get() - watcherAt.get() < MILLISECONDS.toNanos(SHORT_MILLIS / 2);
            if (!inTime && attempt < 5) {
                continue;
            }
            assumeTrue(inTime, "the other consumer started too late five times over: this host stalls too long to tell");
            assertThat(watcherGot).as("the watcher, at the due time").isEqualTo(ZsetStore.Waiter.NO_SIGNAL);
            assertThat(otherGot).as("the other, after its patience").isEqualTo(ZsetStore.Waiter.WATCHED);
            return;
        }
    }

    @Test
    void aConsumerCountingDownToTheSameDueTime_onAClockEstimateThatEndsSooner_takesOverWatching() throws Exception {
        assertReplacedAndStoodDown(EVENT);
    }

    @Test
    void aConsumerWaitingForAnEarlierDueTime_takesOverWatching() throws Exception {
        assertReplacedAndStoodDown(EVENT - 1);
    }

    /**
     * A watcher of {@link #EVENT} is replaced by a consumer watching {@code replacerEvent} whose
     * count-down ends sooner: that one returns at its due time for its caller to claim, and the
     * replaced one stands down, waiting for a wake-up until a tick past its own due time at most.
     */
    private void assertReplacedAndStoodDown(long replacerEvent) throws Exception {
        for (int attempt = 1; ; attempt++) {
            SignalWaiter w = waiter();
            AtomicLong watcherAt = new AtomicLong();
            AtomicLong replacerAt = new AtomicLong();
            Future<Long> replaced = threads.submit(() -> {
                watcherAt.set(System.nanoTime());
                return w.await(SHORT_MILLIS, PATIENCE_MILLIS, EVENT);
            });
            awaitWatching(w, EVENT);
            Future<Long> replacer = threads.submit(() -> {
                replacerAt.set(System.nanoTime());
                return w.await(SHORT_MILLIS / 2, 2_000, replacerEvent);
            });

            long replacerGot = replacer.get(10, SECONDS);
            long got = replaced.get(15, SECONDS);
            long tookMillis = (System.nanoTime() - watcherAt.get()) / 1_000_000;
            // the replacer's count-down must end before the watcher's: not so if a stalled host
            // started it over half the watcher's wait late
            boolean inTime = replacerAt.get() - watcherAt.get() < MILLISECONDS.toNanos(SHORT_MILLIS / 2);
            if (!inTime && attempt < 5) {
                continue;
            }
            assumeTrue(inTime, "the replacer started too late five times over: this host stalls too long to tell");
            assertThat(replacerGot).as("the replacer, at its due time").isEqualTo(ZsetStore.Waiter.NO_SIGNAL);
            assertThat(got).as("the replaced watcher stood down").isEqualTo(ZsetStore.Waiter.WATCHED);
            // a tick past its due time, and up to a tick late from Redis's timer: well within 2 s
            assertThat(tookMillis).as("ms the replaced watcher waited").isLessThan(2_000);
            return;
        }
    }
}

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
        // its estimate of the server's clock lags the watcher's: it counts down for longer
        Outcome o = watcherThen(2 * SHORT_MILLIS, 1_000, EVENT);

        assertThat(o.watcherGot()).as("the watcher, at the due time").isEqualTo(ZsetStore.Waiter.NO_SIGNAL);
        assertThat(o.otherGot()).as("the other, after its patience").isEqualTo(ZsetStore.Waiter.WATCHED);
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
        Outcome o = watcherThen(SHORT_MILLIS / 2, 2_000, replacerEvent);

        assertThat(o.otherGot()).as("the replacer, at its due time").isEqualTo(ZsetStore.Waiter.NO_SIGNAL);
        assertThat(o.watcherGot()).as("the replaced watcher stood down").isEqualTo(ZsetStore.Waiter.WATCHED);
        // a tick past its due time, and up to a tick late from Redis's timer: well within 2 s
        assertThat(o.watcherMillis()).as("ms the replaced watcher waited").isLessThan(2_000);
    }

    /** What a watcher's wait and another consumer's returned, and how long the watcher's took. */
    private record Outcome(long watcherGot, long watcherMillis, long otherGot) {}

    /**
     * Starts a consumer watching {@link #EVENT} (a wait of {@link #SHORT_MILLIS}) and, while it
     * watches, another's wait of {@code millis} for {@code event}. Tried again if a stalled host
     * started the other over half the watcher's wait late, when the watcher may no longer watch.
     */
    private Outcome watcherThen(long millis, long patienceMillis, long event) throws Exception {
        for (int attempt = 1; ; attempt++) {
            SignalWaiter w = waiter();
            AtomicLong watcherAt = new AtomicLong();
            AtomicLong otherAt = new AtomicLong();
            Future<Long> watcher = threads.submit(() -> {
                watcherAt.set(System.nanoTime());
                return w.await(SHORT_MILLIS, PATIENCE_MILLIS, EVENT);
            });
            awaitWatching(w, EVENT);
            Future<Long> other = threads.submit(() -> {
                otherAt.set(System.nanoTime());
                return w.await(millis, patienceMillis, event);
            });

            long otherGot = other.get(10, SECONDS);
            long watcherGot = watcher.get(15, SECONDS);
            long watcherMillis = (System.nanoTime() - watcherAt.get()) / 1_000_000;
            boolean inTime = otherAt.get() - watcherAt.get() < MILLISECONDS.toNanos(SHORT_MILLIS / 2);
            if (!inTime && attempt < 5) {
                continue;
            }
            assumeTrue(inTime, "the other consumer started too late five times over: this host stalls too long to tell");
            return new Outcome(watcherGot, watcherMillis, otherGot);
        }
    }
}

package io.queuekit.redis.stream;

import io.queuekit.internal.RateLimitedLog;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeats of a topic object's subscriptions, and the reclaim of groups whose heartbeat
 * stopped ({@code beat.lua}). One daemon thread, started with the object's first subscription,
 * renews every {@link #INTERVAL} the beat of each of its live subscriptions, whatever their
 * listeners are doing, so a slow listener never loses its group. The same call, and a publish at
 * most once per {@link #INTERVAL}, deletes at most {@link #RECLAIM_LIMIT} subscription groups whose
 * beat is older than {@link #EXPIRY}: what a process that ended without closing left behind.
 * Beats are on the server's clock, which runs on through an outage: after a gap in the passes
 * {@code beat.lua} gives every process a full {@link #EXPIRY} before reclaiming anything. Easy to
 * get wrong: a subscription whose process alone could not renew for {@link #EXPIRY} while others'
 * passes ran may find its group reclaimed, and ends with a WARN. Each shard is renewed, then
 * reclaimed, on its own: one that fails stops neither on the others.
 */
final class Heartbeats {
    static final Duration INTERVAL = Duration.ofSeconds(5);
    /** Twelve intervals: a gap in the passes of up to half of it keeps live beats under it. */
    static final Duration EXPIRY = Duration.ofMinutes(1);

    static final int RECLAIM_LIMIT = 3;
    private static final Logger LOG = LoggerFactory.getLogger(Heartbeats.class);

    private final RedisStreamTopic<?> topic;
    /** One per shard, in shard order. */
    private final List<StreamScripts.Beat> beats;

    private final Set<String> live = ConcurrentHashMap.newKeySet();
    private final AtomicLong lastReclaim = new AtomicLong(System.nanoTime());
    private final RateLimitedLog failures = new RateLimitedLog(LOG, Duration.ofSeconds(10));
    private volatile long intervalMillis = INTERVAL.toMillis();
    private volatile long expiryMillis = EXPIRY.toMillis();
    private ScheduledExecutorService timer; // guarded by this
    private boolean closed; // guarded by this

    Heartbeats(RedisStreamTopic<?> topic, List<StreamScripts.Beat> beats) {
        this.topic = topic;
        this.beats = List.copyOf(beats);
    }

    /** Shorter times, for tests; before the first subscription. */
    void every(Duration interval, Duration expiry) {
        this.intervalMillis = interval.toMillis();
        this.expiryMillis = expiry.toMillis();
    }

    /** Renews the beat of subscription group {@code group} from now on, until {@link #remove}. */
    synchronized void add(String group) {
        live.add(group);
        if (timer == null && !closed) {
            String threadName = "queuekit-" + topic.name() + "-heartbeat";
            ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
                Thread thread = new Thread(r, threadName);
                thread.setDaemon(true);
                return thread;
            });
            t.setRemoveOnCancelPolicy(true);
            // tick catches what it throws, so the task never ends on its own while the object lives
            var unused = t.scheduleWithFixedDelay(
                    new Tick(new WeakReference<>(this), t), intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
            timer = t;
        }
    }

    /**
     * The timer's task. It holds its heartbeats (and so the topic object) weakly, and neither does
     * the thread: a topic object dropped without {@code close()} once its subscriptions closed is
     * collected, and its thread then stops.
     */
    private static final class Tick implements Runnable {
        private final WeakReference<Heartbeats> heartbeats;
        private final ScheduledExecutorService timer;

        Tick(WeakReference<Heartbeats> heartbeats, ScheduledExecutorService timer) {
            this.heartbeats = heartbeats;
            this.timer = timer;
        }

        @Override
        public void run() {
            Heartbeats h = heartbeats.get();
            if (h == null) {
                timer.shutdown();
            } else {
                h.tick();
            }
        }
    }

    void remove(String group) {
        live.remove(group);
    }

    /** After a publish: a reclaim pass, if none ran for an interval. */
    void afterPublish() {
        long last = lastReclaim.get();
        long now = System.nanoTime();
        if (now - last < TimeUnit.MILLISECONDS.toNanos(intervalMillis) || !lastReclaim.compareAndSet(last, now)) {
            return;
        }
        beatAndReclaim(List.of());
    }

    private void tick() {
        lastReclaim.set(System.nanoTime());
        beatAndReclaim(List.copyOf(live));
    }

    /**
     * Renews {@code renew}'s beats on every shard, then reclaims what expired, shard by shard; a
     * shard that fails (logged, the next pass tries again) stops neither the others' beats nor their
     * reclaims.
     */
    private void beatAndReclaim(Collection<String> renew) {
        RuntimeException failed = null;
        List<StreamScripts.Beat.Expired> expired = new ArrayList<>(beats.size());
        for (StreamScripts.Beat beat : beats) {
            try {
                expired.add(beat.run(expiryMillis, RECLAIM_LIMIT, renew));
            } catch (RuntimeException ex) {
                expired.add(null);
                failed = ex;
            }
        }
        for (int shard = 0; shard < beats.size(); shard++) {
            try {
                StreamScripts.Beat.Expired e = expired.get(shard);
                if (e != null) {
                    reclaim(shard, e);
                }
            } catch (RuntimeException ex) {
                failed = ex;
            }
        }
        if (failed == null) {
            failures.recovered("queuekit {}: subscription heartbeats work again", topic.name());
        } else {
            failures.failed(
                    "queuekit " + topic.name() + ": subscription heartbeats failed; the next pass tries again", failed);
        }
    }

    /** Deletes, on one shard, the groups whose beat it found expired, unless renewed since. */
    private void reclaim(int shard, StreamScripts.Beat.Expired e) {
        for (String group : e.groups()) {
            if (topic.admin(group).delete.get(shard).runIfBeatBefore(group, e.cutoffMillis())) {
                LOG.info(
                        "queuekit {}: deleted the subscription group {} (shard {}), whose heartbeat stopped over {} ms"
                                + " ago (its process ended without closing it)",
                        topic.name(),
                        group,
                        shard,
                        expiryMillis);
            }
        }
    }

    /** Stops renewing: the object's subscriptions are closed. */
    synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }
}

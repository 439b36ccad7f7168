package io.queuekit.redis.stream;

import io.queuekit.internal.RateLimitedLog;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A topic object's retention on one stream (of a sharded topic, one shard's): the hard cap its
 * publish script applies, and the soft pass ({@code trim.lua}) it runs after a publish at most
 * about once a second, removing at most {@link #PASS_LIMIT} entries that every durable group has
 * acked. Subscriptions hold nothing back: what either removes before one read it is counted as its
 * {@code missed} and logged at WARN. A sharded topic's limits by length are the whole topic's:
 * each of its {@code n} shards keeps a share of them ({@link #share}).
 */
final class Retention {
    static final int PASS_LIMIT = 1000;
    private static final Logger LOG = LoggerFactory.getLogger(Retention.class);
    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String name;
    private final StreamScripts.Trim trim;
    private final long maxLength;
    private final long maxAgeMillis;
    private final long hardMaxLength;
    private final AtomicLong lastPass = new AtomicLong(System.nanoTime() - PERIOD_NANOS);
    private final RateLimitedLog failures = new RateLimitedLog(LOG, Duration.ofSeconds(10));
    private final RateLimitedLog missed = new RateLimitedLog(LOG, Duration.ofSeconds(10));
    private final RateLimitedLog overtaken = new RateLimitedLog(LOG, Duration.ofSeconds(10));

    /** @param name the topic's, for logs */
    Retention(String name, StreamScripts.Trim trim, long maxLength, Duration maxAge, long hardMaxLength) {
        this.name = name;
        this.trim = trim;
        this.maxLength = maxLength;
        this.maxAgeMillis = maxAge == null ? 0 : Math.max(1, maxAge.toMillis());
        this.hardMaxLength = hardMaxLength;
    }

    /** One shard's share of a length limit over {@code shards}: the limit divided, rounded up; 0 stays 0. */
    static long share(long limit, int shards) {
        return limit == 0 ? 0 : (limit + shards - 1) / shards;
    }

    /** The hard cap, 0 for none. */
    long hardCap() {
        return hardMaxLength;
    }

    private boolean soft() {
        return maxLength > 0 || maxAgeMillis > 0;
    }

    /**
     * After a publish: a warning (rate-limited) if the hard cap removed what a group had not acked;
     * then a soft pass, if one is set and none ran for a second; a failure is logged. (The
     * subscriptions' reclaim pass after a publish is {@link Heartbeats#afterPublish}'s.)
     */
    void afterPublish(StreamScripts.Publish.Published p) {
        if (p.missed() > 0 && missed.tryAcquire() >= 0) {
            LOG.warn(
                    "queuekit {}: the hard max length ({}) removed {} entries before a group had acked them; groups()"
                            + " counts them per group as missed: a group is far behind",
                    name,
                    hardMaxLength,
                    p.missed());
        }
        if (!soft()) {
            return;
        }
        long last = lastPass.get();
        long now = System.nanoTime();
        if (now - last < PERIOD_NANOS || !lastPass.compareAndSet(last, now)) {
            return;
        }
        try {
            warnIfMissed(trim.run(maxLength, maxAgeMillis, PASS_LIMIT));
            failures.recovered("queuekit {}: trimming works again", name);
        } catch (RuntimeException e) {
            // the messages stay: retention is late, nothing is lost
            failures.failed("queuekit " + name + ": a retention pass failed; the next publish tries again", e);
        }
    }

    /** One soft pass now; how many entries it removed. */
    long trim() {
        if (!soft()) {
            return 0;
        }
        StreamScripts.Trim.Trimmed t = trim.run(maxLength, maxAgeMillis, PASS_LIMIT);
        warnIfMissed(t);
        return t.removed();
    }

    private void warnIfMissed(StreamScripts.Trim.Trimmed t) {
        if (t.missed() > 0 && overtaken.tryAcquire() >= 0) {
            LOG.warn(
                    "queuekit {}: soft retention (max length {}, max age {} ms) removed {} entries before a"
                            + " subscription read them; groups() counts them per subscription as missed: a subscriber"
                            + " is far behind, or its process died and left its group",
                    name,
                    maxLength,
                    maxAgeMillis,
                    t.missed());
        }
    }
}

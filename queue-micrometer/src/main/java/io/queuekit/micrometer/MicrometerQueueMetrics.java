package io.queuekit.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.queuekit.QueueStats;
import io.queuekit.spi.QueueMetrics;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Records queuekit metrics in a Micrometer {@link MeterRegistry}. Pass it to a transport's builder
 * ({@code .metrics(MicrometerQueueMetrics.of(registry))}); every meter is named {@code queuekit.*}
 * and tagged {@code queue} (the queue or channel name), {@code transport} and {@code namespace} (the
 * key prefix on Redis, for a stream's consumer group the topic's key base {@code <prefix>:{<topic>}},
 * {@code jvm-<n>} in memory), so two queues of one name under different prefixes, or same-named
 * groups of two topics, are counted apart. The meters are listed in {@code docs/metrics-and-logging.md}.
 *
 * <p>Easy to get wrong: a queue's meters are shared by every queue object of the JVM with its tags
 * (on Redis they are one queue) and removed when the last of them closes; a queue built again later
 * starts afresh. Gauges read the counts on a background thread, at most once a second per queue,
 * failures included, and wait at most 100 ms in all, then answer with the last counts read in the
 * past 10 s, or NaN: a Redis outage never blocks a scrape for long. Thread-safe.
 */
public final class MicrometerQueueMetrics implements QueueMetrics {
    private static final long STATS_TTL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long READ_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long STALE_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService READERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "queuekit-metrics-stats-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });
    /**
     * The queues registered in each registry, by their tags; shared by every instance of this class.
     * Held weakly both ways: the queue objects and the registry's gauges hold a registration, so a
     * registry or a queue nobody closed can still be collected.
     */
    private static final Map<MeterRegistry, Map<Tags, WeakReference<Registration>>> REGISTERED = new WeakHashMap<>();

    private final MeterRegistry registry;

    private MicrometerQueueMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public static MicrometerQueueMetrics of(MeterRegistry registry) {
        return new MicrometerQueueMetrics(Objects.requireNonNull(registry, "registry"));
    }

    @Override
    public Observer observe(String name, String transport, String namespace, Supplier<QueueStats> stats) {
        Tags tags = Tags.of("queue", name, "transport", transport, "namespace", namespace);
        synchronized (REGISTERED) {
            Map<Tags, WeakReference<Registration>> queues = REGISTERED.computeIfAbsent(registry, k -> new HashMap<>());
            WeakReference<Registration> ref = queues.get(tags);
            Registration r = ref == null ? null : ref.get();
            if (r == null) {
                r = new Registration(registry, tags);
                queues.put(tags, new WeakReference<>(r));
            }
            r.users++;
            if (stats != null) {
                r.stats.add(stats);
            }
            return new MicrometerObserver(registry, r, stats);
        }
    }

    /**
     * The meters of one queue, and the queue objects that report to them. Guarded by REGISTERED.
     * It holds no reference to its registry, which is a weak key of REGISTERED.
     */
    private static final class Registration {
        final Tags tags;
        final List<Meter> meters = new ArrayList<>();
        final List<Supplier<QueueStats>> stats = new ArrayList<>();
        final Counter sent, delivered, acked, retried, redelivered, deadLettered;
        final Timer latency, handlerOk, handlerFailed;
        final CachedStats cache = new CachedStats(this);
        boolean gauges;
        Subscriptions subscriptions;
        int users;

        Registration(MeterRegistry r, Tags tags) {
            this.tags = tags;
            sent = add(r.counter("queuekit.sent", tags));
            delivered = add(r.counter("queuekit.delivered", tags));
            acked = add(r.counter("queuekit.acked", tags));
            retried = add(r.counter("queuekit.retried", tags));
            redelivered = add(r.counter("queuekit.redelivered", tags));
            deadLettered = add(r.counter("queuekit.dead.lettered", tags));
            latency = add(r.timer("queuekit.latency", tags));
            handlerOk = add(r.timer("queuekit.handler", tags.and("outcome", "success")));
            handlerFailed = add(r.timer("queuekit.handler", tags.and("outcome", "failure")));
        }

        private <M extends Meter> M add(M meter) {
            meters.add(meter);
            return meter;
        }

        /** Registers the gauges once some queue object brings its counts. */
        void gauges(MeterRegistry registry) {
            if (gauges) {
                return;
            }
            gauges = true;
            gauge(registry, "queuekit.ready", QueueStats::ready);
            gauge(registry, "queuekit.in.flight", QueueStats::inFlight);
            gauge(registry, "queuekit.delayed", QueueStats::delayed);
            gauge(registry, "queuekit.dead", QueueStats::dead);
            gauge(registry, "queuekit.paused", s -> s.paused() ? 1 : 0);
        }

        private void gauge(MeterRegistry registry, String meter, ToLongFunction<QueueStats> part) {
            // held strongly: nothing else holds the cache, and a weakly held gauge reads NaN after a GC
            add(Gauge.builder(meter, cache, c -> c.read(part))
                    .tags(tags)
                    .strongReference(true)
                    .register(registry));
        }

        /** Registers the meters of subscriptions once some broadcaster reports here; returns them. */
        Subscriptions subscriptions(MeterRegistry registry) {
            if (subscriptions == null) {
                subscriptions = new Subscriptions(
                        add(registry.timer("queuekit.gap", tags)),
                        add(registry.counter("queuekit.reconnected", tags)),
                        add(registry.counter("queuekit.decode.failed", tags)));
            }
            return subscriptions;
        }

        /** The counts of any queue object still open; null if none brought them. */
        Supplier<QueueStats> source() {
            synchronized (REGISTERED) {
                return stats.isEmpty() ? null : stats.get(0);
            }
        }

        void release(MeterRegistry registry, Supplier<QueueStats> source) {
            synchronized (REGISTERED) {
                if (source != null) {
                    stats.remove(source);
                }
                if (--users > 0) {
                    return;
                }
                meters.forEach(registry::remove);
                Map<Tags, WeakReference<Registration>> queues = REGISTERED.get(registry);
                if (queues != null) {
                    queues.remove(tags);
                }
            }
        }
    }

    /** The meters only a broadcaster's subscriptions move. */
    private record Subscriptions(Timer gap, Counter reconnected, Counter decodeFailed) {}

    /**
     * The last counts read, refreshed on a background thread at most once per second; a failed
     * read counts as a read (its gauges show NaN until the next).
     */
    private static final class CachedStats {
        private final Registration owner;
        private QueueStats last;
        private long lastGoodAt;
        private long readAt;
        private CompletableFuture<Void> reading;
        private long readingSince;

        CachedStats(Registration owner) {
            this.owner = owner;
        }

        double read(ToLongFunction<QueueStats> part) {
            QueueStats s = current();
            return s == null ? Double.NaN : part.applyAsLong(s);
        }

        private QueueStats current() {
            CompletableFuture<Void> pending;
            long wait;
            synchronized (this) {
                long now = System.nanoTime();
                if (reading == null && (readAt == 0 || now - readAt >= STATS_TTL_NANOS)) {
                    readingSince = now;
                    reading = CompletableFuture.runAsync(this::refresh, READERS);
                }
                pending = reading;
                // a read is waited for 100 ms in all, however many gauges ask while it runs
                wait = READ_WAIT_NANOS - (now - readingSince);
            }
            if (pending != null && wait > 0) {
                try {
                    pending.get(wait, TimeUnit.NANOSECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // answer with what is known
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            synchronized (this) {
                return last != null && System.nanoTime() - lastGoodAt < STALE_NANOS ? last : null;
            }
        }

        private void refresh() {
            QueueStats s = null;
            try {
                Supplier<QueueStats> source = owner.source();
                if (source != null) {
                    s = source.get();
                }
            } catch (RuntimeException e) {
                s = null;
            } finally {
                // whatever the read threw, the next one may start in a second
                synchronized (this) {
                    long now = System.nanoTime();
                    readAt = now;
                    last = s;
                    if (s != null) {
                        lastGoodAt = now;
                    }
                    reading = null;
                }
            }
        }
    }

    private static final class MicrometerObserver implements Observer {
        private final MeterRegistry registry;
        private final Registration r;
        private final Supplier<QueueStats> stats;
        /** Null for a queue: its subscription events, reported by no queue, are not recorded. */
        private final Subscriptions subscriptions;

        private boolean closed; // guarded by REGISTERED

        /** Called with REGISTERED held. */
        MicrometerObserver(MeterRegistry registry, Registration r, Supplier<QueueStats> stats) {
            this.registry = registry;
            this.r = r;
            this.stats = stats;
            if (stats != null) {
                r.gauges(registry);
                this.subscriptions = null;
            } else {
                this.subscriptions = r.subscriptions(registry);
            }
        }

        @Override
        public void sent(int count) {
            r.sent.increment(count);
        }

        @Override
        public void delivered(Duration latency) {
            r.delivered.increment();
            r.latency.record(latency.isNegative() ? Duration.ZERO : latency);
        }

        @Override
        public void acked() {
            r.acked.increment();
        }

        @Override
        public void retried() {
            r.retried.increment();
        }

        @Override
        public void redelivered(long count) {
            r.redelivered.increment((double) count);
        }

        @Override
        public void deadLettered() {
            r.deadLettered.increment();
        }

        @Override
        public void handled(Duration time, boolean failed) {
            (failed ? r.handlerFailed : r.handlerOk).record(time);
        }

        @Override
        public void gap(Duration duration) {
            if (subscriptions != null) {
                subscriptions.gap().record(duration == null || duration.isNegative() ? Duration.ZERO : duration);
            }
        }

        @Override
        public void reconnected() {
            if (subscriptions != null) {
                subscriptions.reconnected().increment();
            }
        }

        @Override
        public void decodeFailed() {
            if (subscriptions != null) {
                subscriptions.decodeFailed().increment();
            }
        }

        @Override
        public void close() {
            synchronized (REGISTERED) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            r.release(registry, stats);
        }
    }
}

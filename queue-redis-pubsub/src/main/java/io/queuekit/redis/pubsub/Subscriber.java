package io.queuekit.redis.pubsub;

import io.queuekit.Codec;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueException;
import io.queuekit.SerializationException;
import io.queuekit.TransportException;
import io.queuekit.redis.pubsub.RedisBroadcaster.GapEvent;
import io.queuekit.redis.pubsub.RedisBroadcaster.PatternListener;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.Connection;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.Pool;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * One subscription's machinery. An I/O thread holds one of the client's connections in SUBSCRIBE
 * (or PSUBSCRIBE) and subscribes again after the connection is lost; a delivery thread decodes
 * and runs the listener. A bounded buffer sits between them, so no listener runs on the thread
 * that reads the socket. When the listener falls behind and the buffer is full, the I/O thread
 * stops reading: the backlog then waits in Redis, which cuts the connection once it passes the
 * server's {@code client-output-buffer-limit pubsub}; that loss is recovered and reported like any
 * other.
 *
 * <p>The I/O thread is never interrupted. Jedis ends its read loop on an interrupt even while the
 * connection is still subscribed, and would hand that connection back to the client's pool in
 * subscribed state; the thread is stopped with UNSUBSCRIBE instead.
 */
final class Subscriber<T> {
    private static final Logger log = LoggerFactory.getLogger(RedisBroadcaster.class);
    private static final long SLOW_LISTENER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final UnifiedJedis client;
    private final byte[] target;
    private final String targetText;
    private final boolean pattern;
    private final String channel;
    private final String name;
    private final String owner;
    private final Codec<T> codec;
    private final PatternListener<? super T> listener;
    /** The name of a pattern subscription's channel, or null for a channel that is not a broadcaster's. */
    private final Function<byte[], String> channelNames;
    private final Settings settings;
    private final Counters counters;
    private final Consumer<? super Subscriber<T>> onClosed;

    private final BlockingQueue<Envelope> buffer;
    private final CompletableFuture<Void> firstSubscribe = new CompletableFuture<>();
    private final CountDownLatch closeSignal = new CountDownLatch(1);
    /** Serialises our writes to the subscribed connection (keep-alive, UNSUBSCRIBE) with the close handshake. */
    private final Object writeLock = new Object();
    private final LogLimiter listenerLog = new LogLimiter(10, TimeUnit.SECONDS);
    private final LogLimiter decodeLog = new LogLimiter(10, TimeUnit.SECONDS);
    private final LogLimiter foreignLog = new LogLimiter(60, TimeUnit.SECONDS);
    private final LogLimiter backlogLog = new LogLimiter(60, TimeUnit.SECONDS);
    private final LogLimiter silenceLog = new LogLimiter(60, TimeUnit.SECONDS);
    private final LogLimiter stillDownLog = new LogLimiter(60, TimeUnit.SECONDS);
    private final Thread ioThread;
    private final Thread deliveryThread;

    private volatile boolean closing;
    private PubSub current; // guarded by writeLock
    private volatile boolean connected;
    private volatile boolean ioWaitingForBuffer;
    private volatile long lastReadNanos = System.nanoTime();
    private volatile long lastKeepAliveNanos = lastReadNanos;

    Subscriber(
            UnifiedJedis client,
            byte[] target,
            boolean pattern,
            String channel,
            String name,
            String owner,
            Codec<T> codec,
            PatternListener<? super T> listener,
            Function<byte[], String> channelNames,
            Settings settings,
            Counters counters,
            Consumer<? super Subscriber<T>> onClosed) {
        this.client = client;
        this.target = target;
        this.targetText = new String(target, StandardCharsets.UTF_8);
        this.pattern = pattern;
        this.channel = channel;
        this.name = name;
        this.owner = owner;
        this.codec = codec;
        this.listener = listener;
        this.channelNames = channelNames;
        this.settings = settings;
        this.counters = counters;
        this.onClosed = onClosed;
        this.buffer = new ArrayBlockingQueue<>(settings.bufferCapacity());
        // daemon threads: a forgotten subscription must not keep the JVM alive
        this.ioThread = new Thread(this::readLoop, name + "-redis");
        this.ioThread.setDaemon(true);
        this.deliveryThread = new Thread(this::deliveryLoop, name);
        this.deliveryThread.setDaemon(true);
    }

    String name() {
        return name;
    }

    String channel() {
        return channel;
    }

    boolean isPattern() {
        return pattern;
    }

    boolean isActive() {
        return !closing;
    }

    boolean isConnected() {
        return connected && !closing;
    }

    Counters counters() {
        return counters;
    }

    /** Starts both threads and returns once Redis confirmed the subscription, or throws. */
    void start() {
        ioThread.start();
        deliveryThread.start();
        Duration timeout = settings.subscribeTimeout();
        try {
            firstSubscribe.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (CancellationException e) {
            throw new QueueClosedException(owner);
        } catch (TimeoutException e) {
            beginClose();
            throw new TransportException("Redis did not confirm the subscription of " + name + " to "
                    + describe() + " within " + timeout + "; each subscription holds one of the client's "
                    + "pooled connections while it runs: is the pool exhausted?", e);
        } catch (ExecutionException e) {
            beginClose();
            Throwable cause = e.getCause();
            throw new TransportException("could not subscribe " + name + " to " + describe() + ": " + cause,
                    cause);
        } catch (InterruptedException e) {
            beginClose();
            Thread.currentThread().interrupt();
            throw new QueueException("interrupted while waiting for Redis to confirm the subscription of "
                    + name + " to " + describe(), e);
        }
    }

    /** Closes and waits, within the configured bound, for both threads to end. */
    void close() {
        beginClose();
        awaitTermination(System.nanoTime() + settings.closeTimeout().toNanos());
    }

    /** Stops taking messages and asks Redis to end the subscription; does not wait. */
    boolean beginClose() {
        synchronized (writeLock) {
            if (closing) {
                return false;
            }
            closing = true;
            if (current != null && current.confirmed) {
                unsubscribe(current);
            }
            // an unconfirmed subscription is ended by subscribed() when its confirmation arrives
        }
        connected = false;
        closeSignal.countDown();
        firstSubscribe.cancel(false);
        if (Thread.currentThread() != deliveryThread) {
            // wakes an idle delivery thread, and a listener blocked interruptibly; the I/O thread is
            // never interrupted (see the class comment)
            deliveryThread.interrupt();
        }
        onClosed.accept(this);
        return true;
    }

    void awaitTermination(long deadlineNanos) {
        boolean interrupted = false;
        for (Thread t : List.of(deliveryThread, ioThread)) {
            long left = deadlineNanos - System.nanoTime();
            if (t == Thread.currentThread() || left <= 0) {
                continue;
            }
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            } catch (InterruptedException e) {
                interrupted = true;
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (deliveryThread.isAlive() && deliveryThread != Thread.currentThread()) {
            log.warn("{}: the listener was still running {} after close(); its thread ends when the "
                    + "listener returns", name, settings.closeTimeout());
        }
        if (ioThread.isAlive()) {
            log.warn("{}: the Redis connection did not close within {}; its thread ends when Redis "
                    + "confirms the UNSUBSCRIBE or the connection drops", name, settings.closeTimeout());
        }
    }

    private String describe() {
        return (pattern ? "pattern " : "channel ") + channel + " (" + targetText + ")";
    }

    // ---------------------------------------------------------------------------------------------
    // I/O thread

    private void readLoop() {
        try {
            Duration backoff = settings.initialBackoff();
            Instant lostAt = null;
            Throwable lostCause = null;
            while (!closing) {
                PubSub ps = new PubSub(lostAt, lostCause);
                synchronized (writeLock) {
                    current = ps;
                }
                Throwable failure = null;
                try {
                    // Borrows a connection from the client's own provider and holds it until the
                    // subscription ends: the pool for RedisClient, the current master's pool for
                    // RedisSentinelClient (so a resubscription follows a failover), any node for
                    // RedisClusterClient (PUBLISH reaches subscribers on every node).
                    if (pattern) {
                        client.psubscribe(ps, target);
                    } else {
                        client.subscribe(ps, target);
                    }
                } catch (RuntimeException e) {
                    failure = e;
                }
                boolean wasConfirmed;
                synchronized (writeLock) {
                    current = null;
                    wasConfirmed = ps.confirmed;
                }
                connected = false;
                if (wasConfirmed && failure != null && !(failure instanceof JedisConnectionException)) {
                    discardIdleConnections(failure);
                }
                if (closing) {
                    break;
                }
                if (failure == null) {
                    failure = new JedisConnectionException("Redis ended the subscription");
                }
                if (!firstSubscribe.isDone()) {
                    firstSubscribe.completeExceptionally(failure);
                    return;
                }
                if (wasConfirmed) {
                    lostAt = settings.clock().instant();
                    lostCause = failure;
                    backoff = settings.initialBackoff();
                    stillDownLog.holdOff();
                    log.warn("{} lost its subscription to {}: {}; subscribing again. Messages published "
                            + "until it is back are not received", name, describe(), failure.toString());
                } else {
                    long held = stillDownLog.tryAcquire();
                    if (held >= 0) {
                        log.warn("{} still cannot subscribe to {} since {}: {}", name, describe(), lostAt,
                                failure.toString());
                    } else {
                        log.debug("{}: subscribing to {} failed: {}", name, describe(), failure.toString());
                    }
                }
                if (closeSignal.await(jitter(backoff), TimeUnit.NANOSECONDS)) {
                    break;
                }
                backoff = backoff.multipliedBy(2).compareTo(settings.maxBackoff()) > 0
                        ? settings.maxBackoff() : backoff.multipliedBy(2);
            }
        } catch (InterruptedException e) {
            // not expected: nothing interrupts this thread; leave quietly
        } catch (Throwable t) {
            // an Error from the JVM or Jedis: end the subscription visibly rather than leave it
            // active with no one reading
            log.error("{}: the subscription thread failed; the subscription is closed", name, t);
            firstSubscribe.completeExceptionally(t);
            beginClose();
        } finally {
            connected = false;
        }
    }

    /**
     * Jedis hands a subscription's connection back to the client's pool when its read loop ends
     * with anything but a connection error, even while the connection is still subscribed; a command
     * that borrowed it next would read pushed messages as its reply. Destroying the pools' idle
     * connections takes that one out; the others are simply opened again when needed.
     */
    private void discardIdleConnections(Throwable failure) {
        List<Pool<Connection>> pools = new ArrayList<>();
        if (client instanceof RedisClient c) {
            pools.add(c.getPool());
        } else if (client instanceof RedisSentinelClient c) {
            pools.addAll(c.getPrimaryNodesConnectionMap().values());
        } else if (client instanceof RedisClusterClient c) {
            pools.addAll(c.getClusterNodes().values());
        }
        for (Pool<Connection> pool : pools) {
            try {
                pool.clear();
            } catch (RuntimeException e) {
                log.debug("{}: could not clear a connection pool: {}", name, e.toString());
            }
        }
        log.warn("{}: Jedis ended the subscription with {}, possibly returning the still subscribed "
                + "connection to the client's pool; discarded the idle connections of {} pool(s)", name,
                failure.toString(), pools.size());
    }

    /** Spreads reconnection attempts of many subscribers after one server restart. */
    private static long jitter(Duration d) {
        long nanos = d.toNanos();
        return nanos - nanos / 5 + ThreadLocalRandom.current().nextLong(nanos / 5 * 2 + 1);
    }

    /** Called on the I/O thread when Redis confirms SUBSCRIBE or PSUBSCRIBE. */
    private void subscribed(PubSub ps) {
        lastReadNanos = System.nanoTime();
        synchronized (writeLock) {
            if (ps.confirmed) {
                return; // the answer to a keep-alive
            }
            ps.confirmed = true;
            if (closing) {
                unsubscribe(ps);
                return;
            }
        }
        connected = true;
        if (firstSubscribe.complete(null)) {
            log.debug("{} subscribed to {}", name, describe());
            return;
        }
        if (ps.lostAt != null) {
            Instant back = settings.clock().instant();
            GapEvent gap = new GapEvent(name, channel, ps.lostAt, back, ps.lostCause);
            counters.reconnected();
            log.warn("{} subscribed to {} again after {} without a connection; messages published in that "
                    + "time were not received", name, describe(), gap.duration());
            enqueue(new Envelope(null, null, gap, 0));
        }
    }

    /** Called on the I/O thread for every message. */
    private void received(byte[] fromChannel, byte[] payload) {
        lastReadNanos = System.nanoTime();
        enqueue(new Envelope(fromChannel, payload, null, System.nanoTime()));
    }

    private void enqueue(Envelope e) {
        if (buffer.offer(e)) {
            return;
        }
        // A full buffer is ordinary flow control during a burst; it is worth a warning only when it
        // lasts, because then the backlog grows in Redis towards its output buffer limit.
        long since = System.nanoTime();
        boolean warned = false;
        ioWaitingForBuffer = true;
        try {
            while (!closing) {
                try {
                    if (buffer.offer(e, 50, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException ignored) {
                    // keep the flag clear: Jedis would leave its read loop while still subscribed
                }
                if (!warned && System.nanoTime() - since > SLOW_LISTENER_NANOS) {
                    warned = true;
                    if (backlogLog.tryAcquire() >= 0) {
                        log.warn("{}: the listener is falling behind, its buffer of {} messages has been full "
                                + "for over a second; Redis now holds the backlog and cuts the connection once "
                                + "it passes client-output-buffer-limit pubsub (that gap is reported)", name,
                                settings.bufferCapacity());
                    }
                }
            }
        } finally {
            ioWaitingForBuffer = false;
        }
    }

    /** Called with writeLock held. */
    private void unsubscribe(PubSub ps) {
        try {
            if (pattern) {
                ps.punsubscribe();
            } else {
                ps.unsubscribe();
            }
        } catch (RuntimeException e) {
            // the read on the I/O thread fails too and ends the subscription
            log.debug("{}: UNSUBSCRIBE failed: {}", name, e.toString());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // delivery thread

    private static final int DRAIN = 256;
    private final List<Envelope> batch = new ArrayList<>(DRAIN);

    private void deliveryLoop() {
        long pollNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(10), settings.keepAliveInterval().toNanos() / 2);
        while (!closing) {
            Envelope e;
            try {
                e = buffer.poll(pollNanos, TimeUnit.NANOSECONDS);
            } catch (InterruptedException ie) {
                continue;
            }
            if (closing) {
                break;
            }
            if (e == null) {
                keepAlive();
                continue;
            }
            handle(e);
            // take what else has arrived in one go: a burst then costs one wake-up, not one per message
            batch.clear();
            buffer.drainTo(batch, DRAIN);
            for (int i = 0; i < batch.size() && !closing; i++) {
                handle(batch.get(i));
            }
        }
        // messages still buffered are dropped: the subscription is closed
        batch.clear();
        buffer.clear();
    }

    private void handle(Envelope e) {
        if (e.gap != null) {
            reportGap(e.gap);
        } else {
            deliver(e);
        }
    }

    private void deliver(Envelope e) {
        String from = e.channel == null ? channel : channelNames.apply(e.channel);
        if (from == null) {
            long held = foreignLog.tryAcquire();
            if (held >= 0) {
                log.warn("{} skipped a message from {}: the pattern {} matches that channel, but it is not a "
                        + "broadcaster channel{}", name, new String(e.channel, StandardCharsets.UTF_8)
                        .replaceAll("\\p{Cntrl}", "?"), channel, more(held));
            }
            return;
        }
        T value;
        try {
            value = codec.decode(e.payload);
            if (value == null) {
                throw new SerializationException("codec " + codec + " returned null", null);
            }
        } catch (Throwable ex) {
            counters.decodeFailed();
            long held = decodeLog.tryAcquire();
            if (held >= 0) {
                log.warn("{} skipped a message from {} that could not be decoded{}", name, from,
                        more(held), ex);
            }
            return;
        }
        long start = System.nanoTime();
        settings.observer().delivered(Duration.ofNanos(start - e.arrivedNanos()));
        try {
            listener.onMessage(from, value);
            settings.observer().handled(Duration.ofNanos(System.nanoTime() - start), false);
        } catch (Throwable t) {
            settings.observer().handled(Duration.ofNanos(System.nanoTime() - start), true);
            if (closing && t instanceof InterruptedException) {
                return;
            }
            counters.listenerFailed();
            long held = listenerLog.tryAcquire();
            if (held >= 0) {
                log.warn("{}: the listener threw on a message from {}; the subscription carries on{}", name,
                        from, more(held), t);
            }
        } finally {
            if (!closing) {
                // a listener that left its thread interrupted must not interrupt the next call
                Thread.interrupted();
            }
        }
    }

    private static String more(long held) {
        return held == 0 ? "" : " (" + held + " more since the last report, not logged)";
    }

    private void reportGap(GapEvent gap) {
        Consumer<? super GapEvent> onGap = settings.onGap();
        if (onGap == null) {
            return;
        }
        try {
            onGap.accept(gap);
        } catch (Throwable ex) {
            log.warn("{}: the onGap callback threw", name, ex);
        }
    }

    /**
     * Repeats SUBSCRIBE (or PSUBSCRIBE) on an idle connection: it stops NATs and load balancers from
     * dropping a quiet connection unnoticed, and makes TCP find out when the server vanished without
     * closing it. Not PING: on a RESP3 connection Jedis can read the PONG before it has registered
     * the handler for it, fail, and hand the still-subscribed connection back to the pool.
     * Subscribing again to the same channel changes nothing on the server and is answered with a
     * subscription confirmation, which Jedis handles like any other.
     */
    private void keepAlive() {
        long now = System.nanoTime();
        long interval = settings.keepAliveInterval().toNanos();
        if (now - lastReadNanos < interval || now - lastKeepAliveNanos < interval) {
            return;
        }
        if (lastKeepAliveNanos - lastReadNanos > 0 && connected && !ioWaitingForBuffer) {
            if (silenceLog.tryAcquire() >= 0) {
                log.warn("{}: no reply from Redis for {}; if the connection is dead, it is replaced once TCP "
                        + "gives up on it", name, Duration.ofNanos(now - lastReadNanos));
            }
        }
        synchronized (writeLock) {
            PubSub ps = current;
            if (ps == null || !ps.confirmed || closing) {
                return;
            }
            try {
                if (pattern) {
                    ps.psubscribe(target);
                } else {
                    ps.subscribe(target);
                }
            } catch (RuntimeException ex) {
                // the read on the I/O thread fails too and replaces the connection
                log.debug("{}: keep-alive failed: {}", name, ex.toString());
            }
        }
        lastKeepAliveNanos = now;
    }

    private record Envelope(byte[] channel, byte[] payload, GapEvent gap, long arrivedNanos) {
    }

    /** Jedis's callbacks for one connection attempt. They never throw, for the reason above. */
    private final class PubSub extends BinaryJedisPubSub {
        final Instant lostAt;
        final Throwable lostCause;
        boolean confirmed; // guarded by writeLock

        PubSub(Instant lostAt, Throwable lostCause) {
            this.lostAt = lostAt;
            this.lostCause = lostCause;
        }

        @Override
        public void onSubscribe(byte[] channel, int subscribedChannels) {
            subscribed(this);
        }

        @Override
        public void onPSubscribe(byte[] pattern, int subscribedChannels) {
            subscribed(this);
        }

        @Override
        public void onMessage(byte[] channel, byte[] message) {
            received(null, message);
        }

        @Override
        public void onPMessage(byte[] pattern, byte[] channel, byte[] message) {
            received(channel, message);
        }
    }
}

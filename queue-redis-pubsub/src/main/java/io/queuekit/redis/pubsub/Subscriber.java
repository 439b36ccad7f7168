package io.queuekit.redis.pubsub;

import static io.queuekit.internal.RateLimitedLog.more;

import io.queuekit.Codec;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueException;
import io.queuekit.SerializationException;
import io.queuekit.TransportException;
import io.queuekit.internal.RateLimitedLog;
import io.queuekit.redis.pubsub.RedisBroadcaster.GapEvent;
import io.queuekit.redis.pubsub.RedisBroadcaster.PatternListener;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.BinaryJedisShardedPubSub;
import redis.clients.jedis.Connection;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.util.Pool;

/**
 * One subscription's machinery. An I/O thread holds one of the client's connections in SUBSCRIBE
 * (or PSUBSCRIBE, or SSUBSCRIBE on the master that serves a sharded channel) and subscribes again after the connection is lost; a delivery thread decodes
 * and runs the listener; the broadcaster's keep-alive thread sends keep-alives and watches for a
 * subscription that Redis never confirms. A bounded buffer sits between the I/O and delivery
 * threads, so no listener runs on the thread that reads the socket. When the listener falls behind
 * and the buffer is full, the I/O thread stops reading: the backlog then waits in Redis, which cuts
 * the connection once it passes the server's {@code client-output-buffer-limit pubsub}; that loss
 * is recovered and reported like any other.
 *
 * <p>With a client whose pools it can reach ({@link ConnectionSource}), the subscription borrows
 * its connection itself and, once Redis confirmed, sets the connection's read timeout to
 * {@link Settings#deadAfter()}: long enough that the answer to a keep-alive always arrives first on
 * a healthy connection, whatever the client's own timeouts, and short enough that a silently dead
 * connection is replaced in bounded time. A connection whose subscription ended cleanly goes back
 * with its own timeout restored; after any failure it goes back broken, so the pool destroys it
 * rather than lend a connection that may still be subscribed. With any other client, Jedis lends
 * the connection and the client's {@code blockingSocketTimeoutMillis} is its read timeout.
 *
 * <p>The I/O thread is never interrupted. Jedis ends its read loop on an interrupt even while the
 * connection is still subscribed; the thread is stopped with UNSUBSCRIBE instead.
 */
final class Subscriber<T> {
    private static final Logger log = LoggerFactory.getLogger(RedisBroadcaster.class);
    private static final long SLOW_LISTENER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final UnifiedJedis client;
    /** Null when Jedis lends the connection (a client whose pools are out of reach). */
    private final ConnectionSource source;
    private final Heartbeat heartbeat;
    private final byte[] target;
    private final String targetText;
    private final Kind kind;
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

    private final Inbox<Envelope> buffer;
    private final CompletableFuture<Void> firstSubscribe = new CompletableFuture<>();
    private final CountDownLatch closeSignal = new CountDownLatch(1);
    /** Serialises our writes to the subscribed connection (keep-alive, UNSUBSCRIBE) with the close handshake. */
    private final Object writeLock = new Object();
    private final RateLimitedLog listenerLog = new RateLimitedLog(log, Duration.ofSeconds(10));
    private final RateLimitedLog decodeLog = new RateLimitedLog(log, Duration.ofSeconds(10));
    private final RateLimitedLog foreignLog = new RateLimitedLog(log, Duration.ofSeconds(60));
    private final RateLimitedLog backlogLog = new RateLimitedLog(log, Duration.ofSeconds(60));
    private final RateLimitedLog silenceLog = new RateLimitedLog(log, Duration.ofSeconds(60));
    private final RateLimitedLog stillDownLog = new RateLimitedLog(log, Duration.ofSeconds(60));
    private final Thread ioThread;
    private final Thread deliveryThread;

    private volatile boolean closing;
    private Attempt current; // guarded by writeLock
    private Future<?> keepAliveChecks; // guarded by writeLock
    private volatile boolean connected;
    private volatile boolean ioWaitingForBuffer;
    private volatile long lastReadNanos = System.nanoTime();
    private volatile long lastKeepAliveNanos = lastReadNanos;

    Subscriber(
            UnifiedJedis client,
            ConnectionSource source,
            Heartbeat heartbeat,
            byte[] target,
            Kind kind,
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
        this.source = source;
        this.heartbeat = heartbeat;
        this.target = target;
        this.targetText = new String(target, StandardCharsets.UTF_8);
        this.kind = kind;
        this.channel = channel;
        this.name = name;
        this.owner = owner;
        this.codec = codec;
        this.listener = listener;
        this.channelNames = channelNames;
        this.settings = settings;
        this.counters = counters;
        this.onClosed = onClosed;
        this.buffer = new Inbox<>(settings.bufferCapacity(), settings.bufferBytes(), Envelope::size);
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
        return kind == Kind.PATTERN;
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

    /** The bytes of the messages waiting in the buffer for the listener (payloads and channel names). */
    long bufferedBytes() {
        return buffer.bytes();
    }

    /** Starts both threads and returns once Redis confirmed the subscription, or throws. */
    void start() {
        ioThread.start();
        deliveryThread.start();
        synchronized (writeLock) {
            if (!closing) {
                keepAliveChecks = heartbeat.every(settings.checkPeriodNanos(), this::checkConnection);
            }
        }
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
            if (keepAliveChecks != null) {
                keepAliveChecks.cancel(false);
            }
            if (current != null && current.confirmed) {
                unsubscribe(current);
            } else if (current != null && current.connection != null) {
                // our own connection, not yet confirmed: it may never be (a dead connection, a full
                // server); closing it ends the I/O thread's wait, and the pool destroys it
                forceDisconnect(current);
            }
            // an unconfirmed subscription on a connection Jedis lent is ended by subscribed() when
            // its confirmation arrives
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
        return kind.text + " " + channel + " (" + targetText + ")";
    }

    // ---------------------------------------------------------------------------------------------
    // I/O thread

    /**
     * Subscribes, and subscribes again after every failure, whatever it was (an {@link Error}
     * while reading a message included), until the subscription is closed; only the first attempt's
     * failure is final, thrown by {@link #start()}.
     */
    private void readLoop() {
        Duration backoff = settings.initialBackoff();
        Instant lostAt = null;
        Throwable lostCause = null;
        try {
            while (!closing) {
                Attempt ps = new Attempt(lostAt, lostCause);
                Throwable failure = source != null ? runOnOwnConnection(ps) : runOnLentConnection(ps);
                boolean wasConfirmed;
                synchronized (writeLock) {
                    wasConfirmed = ps.confirmed;
                }
                connected = false;
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
                    lostAt = ps.endedAt != null ? ps.endedAt : now();
                    lostCause = failure;
                    backoff = settings.initialBackoff();
                }
                try {
                    reportFailure(wasConfirmed, failure, lostAt);
                } catch (Throwable t) {
                    // a logger that fails (out of memory, say) must not end the subscription
                }
                if (closeSignal.await(jitter(backoff), TimeUnit.NANOSECONDS)) {
                    break;
                }
                backoff = backoff.multipliedBy(2).compareTo(settings.maxBackoff()) > 0
                        ? settings.maxBackoff() : backoff.multipliedBy(2);
            }
        } catch (InterruptedException e) {
            // not expected: nothing interrupts this thread; leave quietly
        } finally {
            connected = false;
        }
    }

    private void reportFailure(boolean wasConfirmed, Throwable failure, Instant lostAt) {
        if (wasConfirmed) {
            stillDownLog.holdOff();
            log.warn("{} lost its subscription to {}: {}; subscribing again. Messages published until it is back "
                    + "are not received{}", name, describe(), failure.toString(), hint(failure));
            if (!(failure instanceof RuntimeException)) {
                log.warn("{}: what ended the subscription", name, failure);
            }
            return;
        }
        long held = stillDownLog.tryAcquire();
        if (held >= 0) {
            log.warn("{} still cannot subscribe to {} since {}: {}{}", name, describe(), lostAt, failure.toString(),
                    more(held));
        } else {
            log.debug("{}: subscribing to {} failed: {}", name, describe(), failure.toString());
        }
    }

    /** The builder's clock, or the system's if that one fails: a clock must not end the subscription. */
    private Instant now() {
        try {
            return settings.clock().instant();
        } catch (RuntimeException e) {
            log.debug("{}: the clock failed: {}", name, e.toString());
            return Instant.now();
        }
    }

    /**
     * One subscription attempt on a connection borrowed from the client's pools; returns its
     * failure, or null if it ended with UNSUBSCRIBE (or closing stopped it before it began).
     */
    private Throwable runOnOwnConnection(Attempt ps) {
        ConnectionSource.Lease lease;
        try {
            lease = source.borrow(settings.subscribeTimeout(), settings.deadAfterMillis(), () -> closing);
        } catch (Throwable e) {
            return e;
        }
        if (lease == null) {
            return null;
        }
        Connection connection = lease.connection();
        int ownTimeout = connection.getSoTimeout();
        synchronized (writeLock) {
            if (closing) {
                lease.release();
                return null;
            }
            ps.connection = connection;
            ps.pool = lease.pool();
            ps.startedNanos = System.nanoTime();
            current = ps;
        }
        Throwable failure = null;
        try {
            ps.proceed(connection);
        } catch (Throwable e) {
            // anything: a lost connection, an error reply, an OutOfMemoryError for a huge message
            failure = e;
        } finally {
            synchronized (writeLock) {
                current = null; // from here on no other thread touches the connection
            }
            // before the release: giving back a broken connection makes the pool open a new one, which
            // can take as long as the client's connect and socket timeouts
            connected = false;
            ps.endedAt = now();
        }
        if (failure == null && !connection.isBroken()) {
            try {
                connection.setSoTimeout(ownTimeout); // unsubscribed: as the pool lent it
            } catch (RuntimeException e) {
                connection.setBroken();
            }
        } else {
            // a failure may leave it subscribed, or in the middle of a reply: never lend it again
            connection.setBroken();
        }
        lease.release();
        return failure;
    }

    /** One subscription attempt on a connection Jedis lends; returns as {@link #runOnOwnConnection}. */
    private Throwable runOnLentConnection(Attempt ps) {
        synchronized (writeLock) {
            current = ps;
        }
        try {
            ps.subscribeThrough(client);
            return null;
        } catch (Throwable e) {
            if (ps.confirmed && !(e instanceof JedisConnectionException)) {
                log.warn("{}: Jedis ended the subscription with {} and may have returned the still subscribed "
                        + "connection to the client's pool; a command that borrows it could read a pushed "
                        + "message as its reply", name, e.toString());
            }
            return e;
        } finally {
            synchronized (writeLock) {
                current = null;
            }
        }
    }

    /** What to tell the operator about a lost subscription, beyond the failure itself. */
    private String hint(Throwable failure) {
        if (!isReadTimeout(failure)) {
            return "";
        }
        if (source != null) {
            return " (nothing read for " + settings.deadAfter() + ", not even the answer to a keep-alive)";
        }
        return " (the read timed out: this client is not one whose connections the subscription can borrow "
                + "itself, so it reads with the client's blockingSocketTimeoutMillis, which must be 0 or longer "
                + "than keepAliveInterval, " + settings.keepAliveInterval() + ", plus a round trip)";
    }

    private static boolean isReadTimeout(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** Called with writeLock held: closes the socket under a blocked read, which then fails. */
    private void forceDisconnect(Attempt ps) {
        try {
            ps.connection.forceDisconnect();
        } catch (IOException | RuntimeException e) {
            log.debug("{}: closing the connection failed: {}", name, e.toString());
        }
    }

    /** Spreads reconnection attempts of many subscribers after one server restart. */
    private static long jitter(Duration d) {
        long nanos = d.toNanos();
        return nanos - nanos / 5 + ThreadLocalRandom.current().nextLong(nanos / 5 * 2 + 1);
    }

    /** Called on the I/O thread when Redis confirms SUBSCRIBE, PSUBSCRIBE or SSUBSCRIBE. */
    private void subscribed(Attempt ps) {
        lastReadNanos = System.nanoTime();
        Connection own;
        synchronized (writeLock) {
            if (ps.confirmed) {
                return; // the answer to a keep-alive
            }
            ps.confirmed = true;
            if (closing) {
                unsubscribe(ps);
                return;
            }
            own = ps.connection;
        }
        if (own != null) {
            try {
                // Jedis set the client's blockingSocketTimeoutMillis; this one outlasts a keep-alive's answer
                own.setSoTimeout(settings.deadAfterMillis());
            } catch (RuntimeException e) {
                log.debug("{}: could not set the read timeout: {}", name, e.toString()); // the next read fails
            }
        }
        connected = true;
        if (firstSubscribe.complete(null)) {
            log.debug("{} subscribed to {}", name, describe());
            return;
        }
        if (ps.lostAt != null) {
            Instant back = now();
            GapEvent gap = new GapEvent(name, channel, ps.lostAt, back, ps.lostCause);
            counters.reconnected();
            try {
                Duration lasted = gap.duration();
                settings.observer().reconnected();
                settings.observer().gap(lasted.isNegative() ? Duration.ZERO : lasted); // a clock set back
            } catch (RuntimeException e) {
                // a metrics observer must not throw; if one does, the subscription does not end for it
                log.debug("{}: the metrics observer failed: {}", name, e.toString());
            }
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
                        log.warn("{}: the listener is falling behind, its buffer ({} messages or {} bytes) has "
                                + "been full for over a second; Redis now holds the backlog and cuts the connection "
                                + "once it passes client-output-buffer-limit pubsub (that gap is reported)", name,
                                settings.bufferCapacity(), settings.bufferBytes());
                    }
                }
            }
        } finally {
            ioWaitingForBuffer = false;
        }
    }

    /** Called with writeLock held. */
    private void unsubscribe(Attempt ps) {
        try {
            ps.unsubscribe();
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
        while (!closing) {
            Envelope e;
            try {
                e = buffer.take();
            } catch (InterruptedException ie) {
                continue; // beginClose() interrupts to wake this thread
            }
            if (closing) {
                break;
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
            settings.observer().decodeFailed();
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
     * Runs on the broadcaster's keep-alive thread, never on the listener's, so that a listener
     * that runs long cannot starve it.
     *
     * <p>Repeats SUBSCRIBE (or PSUBSCRIBE) on a connection that has read nothing for the keep-alive
     * interval: it stops NATs and load balancers from dropping a quiet connection unnoticed, and
     * its answer keeps a healthy connection within its read timeout. Not PING: on a RESP3
     * connection Jedis can read the PONG before it has registered the handler for it, fail, and end
     * the subscription. Subscribing again to the same channel changes nothing on the server and is
     * answered with a subscription confirmation, which Jedis handles like any other.
     *
     * <p>Also drops a connection of our own whose subscription Redis has not confirmed within
     * {@link Settings#deadAfter()}: until the confirmation, Jedis reads it with the client's
     * blocking timeout, which may be forever. And drops one whose pool the client no longer sends
     * commands to ({@link ConnectionSource#isCurrent}), so the subscription follows a Sentinel
     * failover to the new primary; the time in between is reported as a gap.
     */
    private void checkConnection() {
        long now = System.nanoTime();
        synchronized (writeLock) {
            Attempt ps = current;
            if (ps == null || closing) {
                return;
            }
            if (!ps.confirmed) {
                if (ps.connection != null && now - ps.startedNanos > settings.deadAfter().toNanos()) {
                    log.warn("{}: Redis did not confirm the subscription to {} within {}; closing that connection "
                            + "to subscribe again", name, describe(), settings.deadAfter());
                    forceDisconnect(ps);
                    ps.startedNanos = now; // once per deadAfter at most
                }
                return;
            }
            if (ps.pool != null && !source.isCurrent(ps.pool)) {
                log.info("{}: the client moved to another primary; subscribing to {} there", name, describe());
                forceDisconnect(ps);
                ps.pool = null; // once
                return;
            }
            long interval = settings.keepAliveInterval().toNanos();
            if (now - lastReadNanos < interval || now - lastKeepAliveNanos < interval) {
                return;
            }
            if (source == null && lastKeepAliveNanos - lastReadNanos > 0 && connected && !ioWaitingForBuffer
                    && silenceLog.tryAcquire() >= 0) {
                log.warn("{}: no reply from Redis for {}; if the connection is dead, it is replaced once the "
                        + "client's blockingSocketTimeoutMillis or TCP gives up on it", name,
                        Duration.ofNanos(now - lastReadNanos));
            }
            try {
                ps.subscribeAgain();
            } catch (RuntimeException ex) {
                // the read on the I/O thread fails too and replaces the connection
                log.debug("{}: keep-alive failed: {}", name, ex.toString());
            }
            lastKeepAliveNanos = now;
        }
    }

    private record Envelope(byte[] channel, byte[] payload, GapEvent gap, long arrivedNanos) {
        long size() {
            return (payload == null ? 0 : payload.length) + (channel == null ? 0 : channel.length);
        }
    }

    /** What a subscription listens to, and so which commands it speaks. */
    enum Kind {
        /** One channel: SUBSCRIBE, reached by PUBLISH from any node of a cluster. */
        CHANNEL("channel"),
        /** The channels a glob matches: PSUBSCRIBE. */
        PATTERN("pattern"),
        /** One sharded channel (Redis 7+ on a cluster): SSUBSCRIBE on the master serving its slot. */
        SHARDED("shard channel");

        final String text;

        Kind(String text) {
            this.text = text;
        }
    }

    /**
     * One subscription attempt: its state, and the Jedis callbacks that read its connection (the
     * classic or the sharded ones: Jedis keeps them in two unrelated classes).
     */
    private final class Attempt {
        final Instant lostAt;
        final Throwable lostCause;
        boolean confirmed; // guarded by writeLock
        /** The connection, when borrowed by this subscription rather than lent by Jedis. */
        Connection connection; // guarded by writeLock
        /** The pool it came from; null once the subscription was told to leave it. */
        Pool<Connection> pool; // guarded by writeLock
        long startedNanos; // guarded by writeLock
        /** When the I/O thread saw the subscription on its own connection end; I/O thread only. */
        Instant endedAt;
        private final Classic classic;
        private final Sharded sharded;

        Attempt(Instant lostAt, Throwable lostCause) {
            this.lostAt = lostAt;
            this.lostCause = lostCause;
            this.classic = kind == Kind.SHARDED ? null : new Classic(this);
            this.sharded = kind == Kind.SHARDED ? new Sharded(this) : null;
        }

        /** Subscribes on {@code c} and reads it until the subscription ends. */
        void proceed(Connection c) {
            switch (kind) {
                case CHANNEL -> classic.proceed(c, target);
                case PATTERN -> classic.proceedWithPatterns(c, target);
                case SHARDED -> sharded.proceed(c, target);
            }
        }

        /** As {@link #proceed}, on a connection Jedis lends; never sharded (see RedisBroadcaster). */
        void subscribeThrough(UnifiedJedis jedis) {
            switch (kind) {
                case CHANNEL -> jedis.subscribe(classic, target);
                case PATTERN -> jedis.psubscribe(classic, target);
                case SHARDED -> throw new IllegalStateException("a sharded subscription borrows its own connection");
            }
        }

        /** The keep-alive: the subscription repeated, which Redis answers with a confirmation. */
        void subscribeAgain() {
            switch (kind) {
                case CHANNEL -> classic.subscribe(target);
                case PATTERN -> classic.psubscribe(target);
                case SHARDED -> sharded.ssubscribe(target);
            }
        }

        void unsubscribe() {
            switch (kind) {
                case CHANNEL -> classic.unsubscribe();
                case PATTERN -> classic.punsubscribe();
                case SHARDED -> sharded.sunsubscribe();
            }
        }
    }

    /** Jedis's callbacks for classic PUB/SUB. */
    private final class Classic extends BinaryJedisPubSub {
        private final Attempt attempt;

        Classic(Attempt attempt) {
            this.attempt = attempt;
        }

        @Override
        public void onSubscribe(byte[] channel, int subscribedChannels) {
            subscribed(attempt);
        }

        @Override
        public void onPSubscribe(byte[] pattern, int subscribedChannels) {
            subscribed(attempt);
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

    /** Jedis's callbacks for sharded PUB/SUB. */
    private final class Sharded extends BinaryJedisShardedPubSub {
        private final Attempt attempt;

        Sharded(Attempt attempt) {
            this.attempt = attempt;
        }

        @Override
        public void onSSubscribe(byte[] channel, int subscribedChannels) {
            subscribed(attempt);
        }

        @Override
        public void onSMessage(byte[] channel, byte[] message) {
            received(null, message);
        }
    }
}

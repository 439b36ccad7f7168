package io.queuekit.redis.pubsub;

import io.queuekit.QueueClosedException;
import io.queuekit.QueueException;
import io.queuekit.TransportException;
import io.queuekit.internal.BroadcastDispatch;
import io.queuekit.internal.BroadcastRuntime;
import io.queuekit.internal.Codecs;
import io.queuekit.internal.HeaderFrame;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;

/**
 * One subscription, over its three threads: its {@link SocketReader} holds one of the client's
 * connections subscribed and subscribes again after losing it; the shared
 * {@link BroadcastDispatch} decodes and runs the listener on a thread of its own, so that no
 * listener runs on the thread that reads the socket; the broadcaster's keep-alive thread runs its
 * {@link KeepAlive}. This class holds what they share and the lifecycle: {@link #start()}
 * returns once Redis confirmed, {@link #beginClose()} ends the subscription.
 *
 * <p>What is easy to get wrong: the reading thread is never interrupted. Jedis ends its read loop
 * on an interrupt even while the connection is still subscribed; the thread is stopped with
 * UNSUBSCRIBE instead, or by closing a connection Redis has not confirmed yet. Writes to the
 * subscribed connection (keep-alive, UNSUBSCRIBE) and that close handshake hold {@link #writeLock}.
 */
final class Subscriber<T> implements BroadcastRuntime.Member {
    static final Logger log = LoggerFactory.getLogger(RedisBroadcaster.class);

    final Shared<T> shared;
    /** Null when Jedis lends the connection (a client whose pools are out of reach). */
    final ConnectionSource source;

    final byte[] target;
    /** What it was asked to listen to: {@link Attempt.Kind#CHANNEL} or {@link Attempt.Kind#PATTERN}. */
    final Attempt.Kind kind;

    private final String targetText;
    private final String channel;
    private final String name;
    final Settings settings;
    final BroadcastDispatch<byte[], T> dispatch;
    final Reconnects reconnects;
    final SocketReader reader;
    private final KeepAlive keepAlive;

    final CompletableFuture<Void> firstSubscribe = new CompletableFuture<>();
    final CountDownLatch closeSignal = new CountDownLatch(1);
    /** Serialises writes to the subscribed connection (keep-alive, UNSUBSCRIBE) with the close handshake. */
    final Object writeLock = new Object();

    Attempt current; // guarded by writeLock
    private Future<?> keepAliveChecks; // guarded by writeLock
    volatile boolean closing;

    /**
     * @param channel the channel's name, or a pattern subscription's pattern
     * @param channelNames for a pattern subscription, the name of the channel a message came from,
     *     or null for a channel that is not a broadcaster's; else null
     */
    Subscriber(
            Shared<T> shared,
            byte[] target,
            Attempt.Kind kind,
            String channel,
            String name,
            BroadcastDispatch.Listener<? super T> listener,
            Function<byte[], String> channelNames) {
        this.shared = shared;
        this.source = shared.sharding().source(shared.connections());
        this.target = target;
        this.kind = kind;
        this.targetText = new String(target, StandardCharsets.UTF_8);
        this.channel = channel;
        this.name = name;
        this.settings = shared.settings();
        this.reconnects = new Reconnects(shared.reconnects());
        this.dispatch = new BroadcastDispatch<>(
                shared.runtime(),
                name,
                channel,
                settings.bufferCapacity(),
                settings.bufferBytes(),
                bytes -> Codecs.decode(shared.codec(), HeaderFrame.read(bytes).payload()),
                HeaderFrame::headersOrEmpty,
                listener,
                this::beginClose);
        this.reader = new SocketReader(this, channelNames);
        this.keepAlive = new KeepAlive(this);
    }

    String name() {
        return name;
    }

    String channel() {
        return channel;
    }

    boolean isPattern() {
        return kind == Attempt.Kind.PATTERN;
    }

    boolean isActive() {
        return !closing;
    }

    boolean isConnected() {
        return reader.connected && !closing;
    }

    /** Starts the threads and returns once Redis confirmed the subscription, or throws. */
    void start() {
        dispatch.start();
        reader.start();
        synchronized (writeLock) {
            if (!closing) {
                keepAliveChecks = shared.heartbeat().every(settings.checkPeriodNanos(), keepAlive::check);
            }
        }
        Duration timeout = settings.subscribeTimeout();
        String owner = "broadcaster " + channel;
        try {
            firstSubscribe.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (CancellationException e) {
            throw new QueueClosedException(owner);
        } catch (TimeoutException e) {
            beginClose();
            throw new TransportException(
                    "Redis did not confirm the subscription of " + name + " to "
                            + describe(kind) + " within " + timeout + "; each subscription holds one of the client's "
                            + "pooled connections while it runs: is the pool exhausted?",
                    e);
        } catch (ExecutionException e) {
            beginClose();
            Throwable cause = e.getCause();
            if (cause instanceof UnsupportedOperationException u) {
                throw u;
            }
            throw new TransportException("could not subscribe " + name + " to " + describe(kind) + ": " + cause, cause);
        } catch (InterruptedException e) {
            beginClose();
            Thread.currentThread().interrupt();
            throw new QueueException(
                    "interrupted while waiting for Redis to confirm the subscription of " + name + " to "
                            + describe(kind),
                    e);
        }
    }

    /** Closes and waits, within the broadcaster's close timeout, for the threads to end. */
    void close() {
        beginClose();
        awaitTermination(System.nanoTime() + shared.runtime().closeTimeout().toNanos());
    }

    /** Stops taking messages and asks Redis to end the subscription; does not wait. */
    @Override
    public void beginClose() {
        // first: whoever sees this subscription inactive must find its listener handed nothing more
        dispatch.beginClose();
        synchronized (writeLock) {
            if (closing) {
                return;
            }
            closing = true;
            if (keepAliveChecks != null) {
                keepAliveChecks.cancel(false);
            }
            if (current != null && current.confirmed) {
                unsubscribe(current);
            } else if (current != null && current.connection != null) {
                // our own connection, not yet confirmed: it may never be (a dead connection, a full
                // server); closing it ends the reading thread's wait, and the pool destroys it
                forceDisconnect(current);
            }
            // an unconfirmed subscription on a connection Jedis lent is ended by subscribed() when
            // its confirmation arrives
        }
        reader.connected = false;
        closeSignal.countDown();
        firstSubscribe.cancel(false);
        shared.runtime().unregister(this);
    }

    @Override
    public void awaitTermination(long deadlineNanos) {
        dispatch.awaitTermination(deadlineNanos);
        reader.awaitTermination(deadlineNanos);
    }

    /** What it subscribes to, for log lines and exceptions. */
    String describe(Attempt.Kind as) {
        return as.text + " " + channel + " (" + targetText + ")";
    }

    /**
     * What an attempt on {@code c}, a connection borrowed from the client's pools, subscribes
     * with: a channel is sharded or not as the connection's server says ({@link Sharding}).
     *
     * @throws UnsupportedOperationException for a pattern on a server that shards the channel
     */
    Attempt.Kind kindOn(Connection c) {
        boolean sharded = shared.sharding().on(c);
        if (kind == Attempt.Kind.PATTERN && sharded) {
            throw shared.sharding().noPatterns();
        }
        return sharded ? Attempt.Kind.SHARDED : kind;
    }

    /** Called with writeLock held. */
    void unsubscribe(Attempt ps) {
        try {
            ps.unsubscribe();
        } catch (RuntimeException e) {
            // the read on the reading thread fails too and ends the subscription
            log.debug("{}: UNSUBSCRIBE failed: {}", name, e.toString());
        }
    }

    /** Called with writeLock held: closes the socket under a blocked read, which then fails. */
    void forceDisconnect(Attempt ps) {
        try {
            ps.connection.forceDisconnect();
        } catch (IOException | RuntimeException e) {
            log.debug("{}: closing the connection failed: {}", name, e.toString());
        }
    }

    /** The builder's clock, or the system's if that one fails: a clock must not end the subscription. */
    Instant now() {
        try {
            return settings.clock().instant();
        } catch (RuntimeException e) {
            log.debug("{}: the clock failed: {}", name, e.toString());
            return Instant.now();
        }
    }
}

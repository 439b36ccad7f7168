package io.queuekit.redis.pubsub;

import static io.queuekit.internal.RateLimitedLog.more;
import static io.queuekit.redis.pubsub.Subscriber.log;

import io.queuekit.internal.BroadcastRuntime;
import io.queuekit.internal.Inbound;
import io.queuekit.internal.RateLimitedLog;
import io.queuekit.redis.pubsub.RedisBroadcaster.GapEvent;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import redis.clients.jedis.Connection;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A subscription's reading thread, {@code queuekit-<channel>-subscriber-<n>-redis}: it holds one
 * of the client's connections in SUBSCRIBE (or PSUBSCRIBE, or SSUBSCRIBE on the master that serves
 * a sharded channel), puts what it reads in the subscription's inbox, and subscribes again with
 * capped exponential backoff after anything ends the subscription, reporting the gap.
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
 * <p>When the listener falls behind and the inbox is full, this thread stops reading: the backlog
 * then waits in Redis, which cuts the connection once it passes the server's
 * {@code client-output-buffer-limit pubsub}; that loss is recovered and reported like any other.
 */
final class SocketReader {
    private static final long SLOW_LISTENER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Subscriber<?> s;
    private final String name;
    /** For a pattern subscription, the name of a message's channel, or null for one that is not a broadcaster's. */
    private final Function<byte[], String> channelNames;

    private final Thread thread;
    private final RateLimitedLog foreignLog = new RateLimitedLog(log, Duration.ofSeconds(60));
    private final RateLimitedLog backlogLog = new RateLimitedLog(log, Duration.ofSeconds(60));
    private final RateLimitedLog stillDownLog = new RateLimitedLog(log, Duration.ofSeconds(60));

    /** Whether Redis has confirmed the subscription on the current connection. */
    volatile boolean connected;
    /** Since when the subscription has been without a confirmed connection after losing one; null otherwise. */
    volatile Instant lostSince;
    /** Whether this thread waits for room in the inbox, and so reads nothing. */
    volatile boolean waitingForRoom;

    volatile long lastReadNanos = System.nanoTime();

    SocketReader(Subscriber<?> subscriber, Function<byte[], String> channelNames) {
        this.s = subscriber;
        this.name = subscriber.name();
        this.channelNames = channelNames;
        this.thread = new Thread(this::run, name + "-redis");
        this.thread.setDaemon(true); // a forgotten subscription must not keep the JVM alive
    }

    void start() {
        thread.start();
    }

    /** Waits for this thread to end, until {@code deadlineNanos} at most; says so if it did not. */
    void awaitTermination(long deadlineNanos) {
        if (!BroadcastRuntime.awaitEnd(thread, deadlineNanos)) {
            log.warn(
                    "{}: the Redis connection did not close when close() stopped waiting; its thread ends when "
                            + "Redis confirms the UNSUBSCRIBE or the connection drops",
                    name);
        }
    }

    /**
     * Subscribes, and subscribes again after every failure, whatever it was (an {@link Error}
     * while reading a message included), until the subscription is closed; only the first attempt's
     * failure is final, thrown by {@link Subscriber#start()}.
     */
    private void run() {
        Duration backoff = s.settings.initialBackoff();
        Instant lostAt = null;
        Throwable lostCause = null;
        try {
            while (!s.closing) {
                Attempt ps = new Attempt(this, s.target, lostAt, lostCause);
                Throwable failure = s.source != null ? runOnOwnConnection(ps) : runOnLentConnection(ps);
                boolean wasConfirmed;
                synchronized (s.writeLock) {
                    wasConfirmed = ps.confirmed;
                }
                connected = false;
                if (s.closing) {
                    break;
                }
                if (failure == null) {
                    failure = new JedisConnectionException("Redis ended the subscription");
                }
                if (!s.firstSubscribe.isDone()) {
                    s.firstSubscribe.completeExceptionally(failure);
                    return;
                }
                if (wasConfirmed) {
                    lostAt = ps.endedAt != null ? ps.endedAt : s.now();
                    lostCause = failure;
                    lostSince = lostAt;
                    backoff = s.settings.initialBackoff();
                }
                try {
                    reportFailure(wasConfirmed, ps, failure, lostAt);
                } catch (Throwable t) {
                    // a logger that fails (out of memory, say) must not end the subscription
                }
                if (s.closeSignal.await(jitter(backoff), TimeUnit.NANOSECONDS)) {
                    break;
                }
                backoff = backoff.multipliedBy(2).compareTo(s.settings.maxBackoff()) > 0
                        ? s.settings.maxBackoff()
                        : backoff.multipliedBy(2);
            }
        } catch (InterruptedException e) {
            // not expected: nothing interrupts this thread; leave quietly
        } finally {
            connected = false;
            lostSince = null;
        }
    }

    private void reportFailure(boolean wasConfirmed, Attempt ps, Throwable failure, Instant lostAt) {
        String what = s.describe(ps.kind() != null ? ps.kind() : s.kind);
        if (wasConfirmed) {
            stillDownLog.holdOff();
            log.warn(
                    "{} lost its subscription to {}: {}; subscribing again. Messages published until it is back "
                            + "are not received{}",
                    name,
                    what,
                    failure.toString(),
                    hint(failure));
            if (!(failure instanceof RuntimeException)) {
                log.warn("{}: what ended the subscription", name, failure);
            }
            return;
        }
        long held = stillDownLog.tryAcquire();
        if (held >= 0) {
            log.warn(
                    "{} still cannot subscribe to {} since {}: {}{}",
                    name,
                    what,
                    lostAt,
                    failure.toString(),
                    more(held));
        } else {
            log.debug("{}: subscribing to {} failed: {}", name, what, failure.toString());
        }
    }

    /**
     * One subscription attempt on a connection borrowed from the client's pools; returns its
     * failure, or null if it ended with UNSUBSCRIBE (or closing stopped it before it began).
     */
    private Throwable runOnOwnConnection(Attempt ps) {
        ConnectionSource.Lease lease;
        try {
            lease = s.source.borrow(s.settings.subscribeTimeout(), s.settings.deadAfterMillis(), () -> s.closing);
        } catch (Throwable e) {
            return e;
        }
        if (lease == null) {
            return null;
        }
        Connection connection = lease.connection();
        int ownTimeout = connection.getSoTimeout();
        try {
            ps.use(s.kindOn(connection)); // asked on every (re)subscription: the server may have been upgraded
        } catch (Throwable e) {
            if (e instanceof JedisConnectionException) {
                connection.setBroken();
            }
            lease.release();
            return e;
        }
        synchronized (s.writeLock) {
            if (s.closing) {
                lease.release();
                return null;
            }
            ps.connection = connection;
            ps.pool = lease.pool();
            ps.startedNanos = System.nanoTime();
            s.current = ps;
        }
        Throwable failure = null;
        try {
            ps.proceed(connection);
        } catch (Throwable e) {
            // anything: a lost connection, an error reply, an OutOfMemoryError for a huge message
            failure = e;
        } finally {
            synchronized (s.writeLock) {
                s.current = null; // from here on no other thread touches the connection
            }
            // before the release: giving back a broken connection makes the pool open a new one, which
            // can take as long as the client's connect and socket timeouts
            connected = false;
            ps.endedAt = s.now();
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
        ps.use(s.kind);
        synchronized (s.writeLock) {
            s.current = ps;
        }
        try {
            ps.subscribeThrough(s.shared.client());
            return null;
        } catch (Throwable e) {
            if (ps.confirmed && !(e instanceof JedisConnectionException)) {
                log.warn(
                        "{}: Jedis ended the subscription with {} and may have returned the still subscribed "
                                + "connection to the client's pool; a command that borrows it could read a pushed "
                                + "message as its reply",
                        name,
                        e.toString());
            }
            return e;
        } finally {
            synchronized (s.writeLock) {
                s.current = null;
            }
        }
    }

    /** What to tell the operator about a lost subscription, beyond the failure itself. */
    private String hint(Throwable failure) {
        if (!isReadTimeout(failure)) {
            return "";
        }
        if (s.source != null) {
            return " (nothing read for " + s.settings.deadAfter() + ", not even the answer to a keep-alive)";
        }
        return " (the read timed out: this client is not one whose connections the subscription can borrow "
                + "itself, so it reads with the client's blockingSocketTimeoutMillis, which must be 0 or longer "
                + "than keepAliveInterval, " + s.settings.keepAliveInterval() + ", plus a round trip)";
    }

    private static boolean isReadTimeout(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** Spreads reconnection attempts of many subscribers after one server restart. */
    private static long jitter(Duration d) {
        long nanos = d.toNanos();
        return nanos - nanos / 5 + ThreadLocalRandom.current().nextLong(nanos / 5 * 2 + 1);
    }

    /** Called on this thread when Redis confirms SUBSCRIBE, PSUBSCRIBE or SSUBSCRIBE. */
    void subscribed(Attempt ps) {
        lastReadNanos = System.nanoTime();
        Connection own;
        synchronized (s.writeLock) {
            if (ps.confirmed) {
                return; // the answer to a keep-alive
            }
            ps.confirmed = true;
            if (s.closing) {
                s.unsubscribe(ps);
                return;
            }
            own = ps.connection;
        }
        if (own != null) {
            try {
                // Jedis set the client's blockingSocketTimeoutMillis; this one outlasts a keep-alive's answer
                own.setSoTimeout(s.settings.deadAfterMillis());
            } catch (RuntimeException e) {
                log.debug("{}: could not set the read timeout: {}", name, e.toString()); // the next read fails
            }
        }
        lostSince = null;
        connected = true;
        if (s.firstSubscribe.complete(null)) {
            log.debug("{} subscribed to {}", name, s.describe(ps.kind()));
            return;
        }
        if (ps.lostAt != null) {
            resumed(ps);
        }
    }

    /** Reports the gap a lost connection made, now that the subscription is back. */
    private void resumed(Attempt ps) {
        Instant back = s.now();
        GapEvent gap = new GapEvent(name, s.channel(), ps.lostAt, back, ps.lostCause);
        s.reconnects.add();
        Duration lasted = gap.duration();
        s.shared.runtime().observer().reconnected();
        s.shared.runtime().observer().gap(lasted.isNegative() ? Duration.ZERO : lasted); // a clock set back
        log.warn(
                "{} subscribed to {} again after {} without a connection; messages published in that "
                        + "time were not received",
                name,
                s.describe(ps.kind()),
                gap.duration());
        Consumer<? super GapEvent> onGap = s.settings.onGap();
        if (onGap != null) {
            // on the listener's thread, in order with the messages
            enqueue(Inbound.event("the onGap callback", () -> onGap.accept(gap)));
        }
    }

    /** Called on this thread for every message. */
    void received(byte[] fromChannel, byte[] payload) {
        long now = System.nanoTime();
        lastReadNanos = now;
        if (fromChannel == null) {
            enqueue(Inbound.message(payload, null, payload.length, now));
            return;
        }
        String from = channelNames.apply(fromChannel);
        if (from == null) {
            long held = foreignLog.tryAcquire();
            if (held >= 0) {
                log.warn(
                        "{} skipped a message from {}: the pattern {} matches that channel, but it is not a "
                                + "broadcaster channel{}",
                        name,
                        new String(fromChannel, StandardCharsets.UTF_8).replaceAll("\\p{Cntrl}", "?"),
                        s.channel(),
                        more(held));
            }
            return;
        }
        enqueue(Inbound.message(payload, from, payload.length + fromChannel.length, now));
    }

    private void enqueue(Inbound<byte[]> item) {
        if (s.dispatch.offer(item)) {
            return;
        }
        // A full inbox is ordinary flow control during a burst; it is worth a warning only when it
        // lasts, because then the backlog grows in Redis towards its output buffer limit.
        long since = System.nanoTime();
        boolean warned = false;
        waitingForRoom = true;
        try {
            while (!s.closing) {
                try {
                    if (s.dispatch.offer(item, 50, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException ignored) {
                    // keep the flag clear: Jedis would leave its read loop while still subscribed
                }
                if (!warned && System.nanoTime() - since > SLOW_LISTENER_NANOS) {
                    warned = true;
                    if (backlogLog.tryAcquire() >= 0) {
                        log.warn(
                                "{}: the listener is falling behind, its buffer ({} messages or {} bytes) has "
                                        + "been full for over a second; Redis now holds the backlog and cuts the connection "
                                        + "once it passes client-output-buffer-limit pubsub (that gap is reported)",
                                name,
                                s.settings.bufferCapacity(),
                                s.settings.bufferBytes());
                    }
                }
            }
        } finally {
            waitingForRoom = false;
        }
    }
}

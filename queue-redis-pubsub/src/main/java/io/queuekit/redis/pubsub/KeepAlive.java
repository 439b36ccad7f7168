package io.queuekit.redis.pubsub;

import static io.queuekit.redis.pubsub.Subscriber.log;

import io.queuekit.internal.RateLimitedLog;
import java.time.Duration;

/**
 * A subscription's keep-alive check, run on the broadcaster's keep-alive thread ({@link Heartbeat}),
 * never on the listener's, so that a listener that runs long cannot starve it.
 *
 * <p>Repeats SUBSCRIBE (or PSUBSCRIBE, SSUBSCRIBE) on a connection that has read nothing for the
 * keep-alive interval: it stops NATs and load balancers from dropping a quiet connection
 * unnoticed, and its answer keeps a healthy connection within its read timeout. Not PING: on a
 * RESP3 connection Jedis can read the PONG before it has registered the handler for it, fail, and
 * end the subscription. Subscribing again to the same channel changes nothing on the server and is
 * answered with a subscription confirmation, which Jedis handles like any other.
 *
 * <p>Also drops a connection of the subscription's own whose subscription Redis has not confirmed
 * within {@link Settings#deadAfter()}: until the confirmation, Jedis reads it with the client's
 * blocking timeout, which may be forever. And drops one whose pool the client no longer sends
 * commands to ({@link ConnectionSource#isCurrent}), so the subscription follows a Sentinel
 * failover to the new primary; the time in between is reported as a gap.
 */
final class KeepAlive {
    private final Subscriber<?> s;
    private final RateLimitedLog silenceLog = new RateLimitedLog(log, Duration.ofSeconds(60));
    private long lastKeepAliveNanos = System.nanoTime(); // guarded by the subscriber's writeLock

    KeepAlive(Subscriber<?> subscriber) {
        this.s = subscriber;
    }

    void check() {
        long now = System.nanoTime();
        SocketReader reader = s.reader;
        synchronized (s.writeLock) {
            Attempt ps = s.current;
            if (ps == null || s.closing) {
                return;
            }
            if (!ps.confirmed) {
                if (ps.connection != null
                        && now - ps.startedNanos > s.settings.deadAfter().toNanos()) {
                    log.warn(
                            "{}: Redis did not confirm the subscription to {} within {}; closing that connection "
                                    + "to subscribe again",
                            s.name(),
                            s.describe(ps.kind()),
                            s.settings.deadAfter());
                    s.forceDisconnect(ps);
                    ps.startedNanos = now; // once per deadAfter at most
                }
                return;
            }
            if (ps.pool != null && !s.source.isCurrent(ps.pool)) {
                log.info(
                        "{}: the client moved to another primary; subscribing to {} there",
                        s.name(),
                        s.describe(ps.kind()));
                s.forceDisconnect(ps);
                ps.pool = null; // once
                return;
            }
            long interval = s.settings.keepAliveInterval().toNanos();
            long lastRead = reader.lastReadNanos;
            if (now - lastRead < interval || now - lastKeepAliveNanos < interval) {
                return;
            }
            if (s.source == null
                    && lastKeepAliveNanos - lastRead > 0
                    && reader.connected
                    && !reader.waitingForRoom
                    && silenceLog.tryAcquire() >= 0) {
                log.warn(
                        "{}: no reply from Redis for {}; if the connection is dead, it is replaced once the "
                                + "client's blockingSocketTimeoutMillis or TCP gives up on it",
                        s.name(),
                        Duration.ofNanos(now - lastRead));
            }
            try {
                ps.subscribeAgain();
            } catch (RuntimeException ex) {
                // the read on the reading thread fails too and replaces the connection
                log.debug("{}: keep-alive failed: {}", s.name(), ex.toString());
            }
            lastKeepAliveNanos = now;
        }
    }
}

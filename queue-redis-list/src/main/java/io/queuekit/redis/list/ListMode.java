package io.queuekit.redis.list;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.SerializationException;
import io.queuekit.internal.AckAll;
import io.queuekit.internal.DeadLetterStore;
import io.queuekit.internal.Delays;
import io.queuekit.internal.GeneratedIds;
import io.queuekit.internal.IdleGate;
import io.queuekit.internal.Pausing;
import io.queuekit.internal.Payloads;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.OneRoundTrip;
import io.queuekit.redis.internal.PauseKey;
import io.queuekit.redis.internal.PendingAck;
import io.queuekit.redis.internal.QueueScript;
import io.queuekit.redis.internal.RedisCalls;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.internal.Replicas;
import io.queuekit.redis.internal.StoredBody;
import io.queuekit.spi.QueueMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.UnifiedJedis;

/**
 * What both delivery guarantees share: sending (one LPUSH of {@link Envelope}s, whatever the
 * mode), retrying, dead-lettering, counting, and scheduling the upkeep (promoting due retries,
 * reaping expired leases) that receiving consumers run instead of a mover process. Subclasses receive.
 */
abstract class ListMode<T> implements ListStorage<T> {
    static final byte[] NONE = new byte[0];

    final UnifiedJedis jedis;
    final RedisContext<T> engine;
    final QueueMetrics.Observer observer;
    final byte[] ready;
    final byte[] claiming;
    final long capMillis;
    final long capNanos;
    final int claimBatch;
    final byte[] lease;
    final byte[] maxAttempts;
    final byte[] retention;
    /** Rule 10 of the wake-up protocol: while this object is idle, one of its receives blocks. */
    final IdleGate gate;
    /** Where this shard's pause is stored. */
    final PauseKey pauseKey;
    /** What this queue object knows of the pause (rule 11), shared by its shards. */
    final Pausing pausing;
    /** Ids made without a round trip, apart from other queue objects' and the server's. */
    private final GeneratedIds ids;

    private final ListScripts.Retry retry;
    private final ListScripts.Renew renew;
    private final ListScripts.Bury bury;
    private final ListScripts.Layout layout;
    /** Whether this object's first send checked that the keys are a list queue's. */
    private volatile boolean layoutChecked;

    private final ListScripts.Stats stats;
    private final ListScripts.Peek peek;
    private final DeadLetterStore<T> dead;
    /** When (System.nanoTime) the next upkeep is due. */
    private final AtomicLong nextUpkeep = new AtomicLong(System.nanoTime());

    ListMode(RedisContext<T> engine) {
        this.jedis = engine.client();
        this.engine = engine;
        this.ids = GeneratedIds.ofInstance(engine.idSuffix());
        this.observer = engine.runtime().observer();
        RedisKeys keys = engine.settings().keys();
        this.ready = keys.keyBytes("ready");
        this.claiming = keys.keyBytes("claiming");
        this.capMillis = engine.settings().blockTimeout().toMillis();
        this.capNanos = TimeUnit.MILLISECONDS.toNanos(capMillis);
        this.claimBatch = engine.settings().claimBatch();
        this.gate = new IdleGate(System::nanoTime, capMillis);
        this.pauseKey = new PauseKey(engine);
        this.pausing = engine.runtime().pausing();
        this.lease = QueueScript.num(engine.settings().visibilityTimeout().toMillis());
        this.maxAttempts = QueueScript.num(engine.settings().maxAttempts());
        this.retention = QueueScript.num(engine.settings().deadLetterRetention());
        this.retry = new ListScripts.Retry(engine);
        this.renew = new ListScripts.Renew(engine);
        this.bury = new ListScripts.Bury(engine);
        this.layout = new ListScripts.Layout(engine);
        this.stats = new ListScripts.Stats(engine);
        this.peek = new ListScripts.Peek(engine);
        this.dead = engine.deadLetterStore();
    }

    /**
     * Stores the payloads (already checked for nulls) in one LPUSH, with ids made here and the
     * sender's clock as their enqueue time.
     */
    @Override
    public final List<MessageId> send(List<? extends T> payloads, Headers headers) {
        engine.runtime().checkOpen();
        return store(engine.encodeAll(payloads, headers));
    }

    /** Stores encoded payloads (checked already) in one LPUSH; their ids, in order. */
    final List<MessageId> store(List<byte[]> encoded) {
        if (encoded.isEmpty()) {
            return List.of();
        }
        if (!layoutChecked) {
            // a send is a plain LPUSH: on a delay queue's keys it would create a list where a ZSET belongs
            layout.check();
            layoutChecked = true;
        }
        long now = System.currentTimeMillis();
        byte[][] elements = new byte[encoded.size()][];
        List<MessageId> out = new ArrayList<>(encoded.size());
        for (int i = 0; i < elements.length; i++) {
            MessageId id = ids.next();
            elements[i] = Envelope.encode(id.value().getBytes(StandardCharsets.US_ASCII), 1, now, encoded.get(i));
            out.add(id);
        }
        Replicas replicas = engine.settings().replicas();
        RedisCalls.call(
                engine.label() + ": send",
                () -> replicas.waited()
                        ? replicas.write(jedis, ready, p -> p.lpush(ready, elements))
                        : jedis.lpush(ready, elements));
        observer.sent(elements.length);
        return out;
    }

    /**
     * Up to {@code max} deliveries, waiting up to {@code timeoutNanos} (more than zero) in Redis for
     * the first, without first taking what is ready: the caller just did ({@link ListShards}).
     *
     * @throws InterruptedException if interrupted on entry or while waiting
     */
    abstract List<Delivery<T>> await(int max, long timeoutNanos) throws InterruptedException;

    /** Acks several deliveries; by default one by one, which costs no round trip at most once. */
    @Override
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        return AckAll.byShard(deliveries, List.of(), d -> null, (none, mine) -> 0);
    }

    @Override
    public QueueStats stats() {
        return counts();
    }

    @Override
    public final DeadLetterStore<T> deadLetters() {
        return dead;
    }

    @Override
    public final void storePaused(boolean paused) {
        pauseKey.store(paused);
    }

    @Override
    public final boolean paused() {
        return pauseKey.read();
    }

    /** What a take's command got, as Jedis reads it, and whether the queue is paused (null: not read). */
    record Took(Object reply, Boolean paused) {}

    /**
     * Sends a take, after {@code pending}'s ack, and the read of the pause after it in the same
     * round trip where the client can ({@link RedisContext#oneRoundTrip()}); else the take alone
     * ({@code alone}), and {@link #pausedAfter} reads the pause if it took something.
     */
    final Took take(PendingAck pending, CommandArguments take, Supplier<?> alone, String what) {
        OneRoundTrip trip = engine.oneRoundTrip();
        if (trip == null) {
            return new Took(pending.with(take, what, alone), null);
        }
        List<Object> r = pending.with(trip, take, List.of(pauseKey.command()), what);
        return new Took(r.get(0), PauseKey.paused(r.get(1), what));
    }

    /**
     * Whether the queue was paused when {@code t} ran, so that what it took ({@code took}) must be
     * given back: as read with it, or, where the client could not send the read with the take, read
     * now if it took something (a round trip more per message on such clients). Tells this object
     * when it is paused.
     */
    final boolean pausedAfter(Took t, boolean took) {
        boolean paused = t.paused() != null ? t.paused() : took && pauseKey.read();
        if (paused) {
            pausing.learned(true);
        }
        return paused;
    }

    /**
     * Stirs the receives waiting in this process behind the gate; one blocked in Redis notices
     * within its block timeout.
     */
    @Override
    public final void receivingStopped() {
        gate.stir();
    }

    /** Nothing held outside Redis, which keeps everything. */
    @Override
    public final void closed() {}

    /** The counts as stored, without running the upkeep first. */
    final QueueStats counts() {
        return stats.run();
    }

    @Override
    public final List<WaitingMessage<T>> peek(int max) {
        List<byte[]> elements = peek.run(max);
        List<WaitingMessage<T>> out = new ArrayList<>(elements.size());
        for (byte[] element : elements) {
            Envelope e = Envelope.parse(element);
            if (e == null) {
                out.add(new WaitingMessage<>(null, 0, null, null, decodeOrNull(element), Payloads.headers(element)));
                continue;
            }
            byte[] section = e.payload();
            out.add(new WaitingMessage<>(
                    e.id,
                    e.attempt,
                    Instant.ofEpochMilli(e.enqueuedMillis),
                    null,
                    decodeOrNull(section),
                    Payloads.headers(section)));
        }
        return out;
    }

    private T decodeOrNull(byte[] payload) {
        try {
            return decode(payload);
        } catch (SerializationException e) {
            return null;
        }
    }

    // ---- settling

    /**
     * Stores {@code e} again as its next attempt, after {@code delay}; {@code inFlight} is its
     * element in 'claiming' (at-least-once) or {@link #NONE}. False if it was no longer in flight.
     */
    final boolean retry(byte[] inFlight, Envelope e, Duration delay) {
        long millis = RedisContext.delayMillis(Delays.retryDelay(delay));
        boolean done = retry.run(inFlight, e.id.value(), e.next(), millis);
        if (done) {
            observer.retried();
        }
        if (done && millis > 0 && millis < capMillis) {
            upkeepBy(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
        }
        return done;
    }

    /**
     * Makes the lease of {@code inFlight}, an element in flight, end {@code duration} from now on
     * the server's clock. False if it is no longer in flight.
     */
    final boolean extendLease(byte[] inFlight, Envelope e, Duration duration) {
        return renew.run(inFlight, e.id.value(), duration.toMillis());
    }

    /** Dead-letters {@code e}; as {@link #retry} for {@code inFlight}. */
    final boolean deadLetter(byte[] inFlight, Envelope e, String reason) {
        boolean done = bury(inFlight, e.id.value(), e.attempt, e.body(), reason == null ? "" : reason);
        if (done) {
            observer.deadLettered();
        }
        return done;
    }

    /** Reports a delivery handed out, with its latency from the sender's clock. */
    final Envelope delivered(Envelope e) {
        observer.delivered(Duration.ofMillis(Math.max(0, System.currentTimeMillis() - e.enqueuedMillis)));
        return e;
    }

    /**
     * Dead-letters an element that is not an envelope (someone else pushed it) under a fresh id,
     * so that it is neither lost nor handed to a handler as a message.
     */
    final void buryForeign(byte[] inFlight, byte[] element) {
        bury(
                inFlight,
                ids.next().value(),
                0,
                StoredBody.of(System.currentTimeMillis(), element, 0),
                "not a queuekit message: found in the list as it is");
    }

    private boolean bury(byte[] inFlight, String id, int attempts, byte[] body, String reason) {
        return bury.run(inFlight, id, attempts, body, reason, retention);
    }

    // ---- upkeep scheduling

    /** True for the one caller that is to run the upkeep now. */
    final boolean upkeepDue(long now) {
        long due = nextUpkeep.get();
        return now - due >= 0 && nextUpkeep.compareAndSet(due, now + capNanos);
    }

    /** Nanoseconds until the upkeep is due (zero or less: now). */
    final long untilUpkeep(long now) {
        return nextUpkeep.get() - now;
    }

    /** After an upkeep: the next one when the next lease or retry falls due, or in a block timeout. */
    final void upkeepDone(long now, long serverNowMillis, long nextEventMillis) {
        if (nextEventMillis >= 0) {
            long in = Math.max(0, Math.min(capMillis, nextEventMillis - serverNowMillis));
            upkeepBy(now + TimeUnit.MILLISECONDS.toNanos(in));
        }
    }

    /** Makes the next upkeep happen no later than {@code nanoTime}. */
    final void upkeepBy(long nanoTime) {
        nextUpkeep.accumulateAndGet(nanoTime, (current, wanted) -> wanted - current < 0 ? wanted : current);
    }

    // ---- for deliveries

    final void checkOpen() {
        engine.runtime().checkOpen();
    }

    final T decode(byte[] payload) {
        return engine.decode(payload);
    }

    final String label() {
        return engine.label();
    }

    /** Rounds a positive number of nanoseconds up to whole milliseconds; zero or less stays. */
    static long ceilMillis(long nanos) {
        return nanos <= 0 ? nanos : nanos / 1_000_000 + (nanos % 1_000_000 == 0 ? 0 : 1);
    }
}

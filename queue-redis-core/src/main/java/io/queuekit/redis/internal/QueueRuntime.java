package io.queuekit.redis.internal;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetters;
import io.queuekit.MessageHandler;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Subscription;
import io.queuekit.internal.Codecs;
import io.queuekit.internal.Consumers;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.internal.PayloadLimit;
import io.queuekit.spi.QueueMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;

/**
 * What every Redis queue holds, whatever its storage: lifecycle (open, closing, closed), payload
 * encoding, managed consumers, metrics, the queue's Lua scripts and its dead letters. For
 * transport modules; applications use the transports' entry classes.
 *
 * <p>A script of the queue is composed of {@code common.lua}, the transport's storage file and the
 * operation ({@link LuaScript#compose}), so each is atomic and one round trip; {@code common.lua}
 * says what a storage file provides. Dead letters are kept alike by every Redis queue: bodies
 * {@code "<enqueued ms>:<payload>"} by id ({@link StoredBody}), attempts and reasons in hashes,
 * ids in a sorted set by time.
 *
 * @param <T> the payload type
 */
public final class QueueRuntime<T> {
    private static final String CORE_LUA = "/io/queuekit/redis/lua/";
    /** Open; closing (receiving refused, settling accepted while consumers drain); closed. */
    private enum Phase { OPEN, CLOSING, CLOSED }

    private final UnifiedJedis jedis;
    private final RedisQueueSettings settings;
    private final Codec<T> codec;
    private final String label;
    private final Class<?> anchor;
    private final List<String> shared;
    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.OPEN);
    private final Consumers consumers;
    private volatile Supplier<QueueStats> statsSource;
    private final QueueMetrics.Observer observer;
    private final DeadLetterScripts.Listing deadList;
    private final DeadLetterScripts.Move deadMove;

    /**
     * @param transport the transport's name, for messages ({@code redis-list})
     * @param anchor a class of the transport's module, to load its scripts
     * @param storage class-path resource of the transport's storage file
     * @param redelivers whether deliveries hold leases (at-least-once), which managed consumers renew
     */
    public QueueRuntime(UnifiedJedis jedis, RedisQueueSettings settings, Codec<T> codec, String transport,
            Class<?> anchor, String storage, boolean redelivers) {
        this.jedis = jedis;
        this.settings = settings;
        this.codec = codec;
        this.label = transport + " " + settings.keys().name();
        this.anchor = anchor;
        this.shared = List.of(CORE_LUA + "common.lua", storage);
        this.observer = settings.metrics().observe(settings.keys().name(), transport, settings.keys().prefix(),
                () -> {
                    Supplier<QueueStats> source = statsSource;
                    return source == null ? new QueueStats(0, 0, 0, 0) : source.get();
                });
        String threads = "queuekit-" + settings.keys().name() + "-leases";
        Duration leaseTime = settings.visibilityTimeout();
        this.consumers = new Consumers(settings.keys().name(), settings.maxAttempts(), observer,
                () -> redelivers ? LeaseKeeper.renewing(threads, leaseTime) : LeaseKeeper.none());
        this.deadList = new DeadLetterScripts.Listing(this);
        this.deadMove = new DeadLetterScripts.Move(this);
    }

    /** Where the metrics gauges read the queue's counts; set by the transport as it is built. */
    public void statsSource(Supplier<QueueStats> source) {
        this.statsSource = Objects.requireNonNull(source, "source");
    }

    /** Where this queue reports what it does. */
    public QueueMetrics.Observer observer() {
        return observer;
    }

    /**
     * A script made of {@code common.lua}, the storage file and {@code operation} (a class-path
     * resource), run with the keys {@code parts}, which must be those it declares.
     *
     * @param what the operation, for error messages ({@code "dead-letter"})
     */
    public QueueScript script(String what, String operation, String... parts) {
        return new QueueScript(this, what, LuaScript.compose(anchor, shared, operation), parts);
    }

    /** A script that uses no shared functions, run with the keys {@code parts} it declares. */
    public QueueScript standalone(String what, String operation, String... parts) {
        return new QueueScript(this, what, LuaScript.compose(anchor, List.of(), operation), parts);
    }

    /** The class-path resource of one of the scripts every Redis queue shares. */
    static String core(String file) {
        return CORE_LUA + file;
    }

    public RedisQueueSettings settings() {
        return settings;
    }

    /** The caller's client, which the queue never closes. */
    public UnifiedJedis client() {
        return jedis;
    }

    /** "transport name", for messages and logs. */
    public String label() {
        return label;
    }

    // ---- payloads

    /** Encodes and size-checks every payload before anything is sent. */
    public List<byte[]> encodeAll(List<? extends T> payloads) {
        List<byte[]> out = new ArrayList<>(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            byte[] b = Codecs.encode(codec, payloads.get(i));
            out.add(PayloadLimit.check(b, settings.maxPayloadBytes(),
                    label + ": payload" + (payloads.size() > 1 ? " at index " + i : "")));
        }
        return out;
    }

    /** Decodes a payload; a failure is a {@link io.queuekit.SerializationException}. */
    public T decode(byte[] payload) {
        return Codecs.decode(codec, payload);
    }

    // ---- dead letters

    /**
     * The queue's dead letters.
     *
     * @param size counts them, as the queue's stats do
     */
    public DeadLetters<T> deadLetters(LongSupplier size) {
        checkOpen();
        return new RedisDeadLetters<>(this, deadList, deadMove, size);
    }

    // ---- lifecycle

    /** Throws {@link QueueClosedException} once the queue is closed (not while it is closing). */
    public void checkOpen() {
        if (phase.get() == Phase.CLOSED) {
            throw new QueueClosedException(label);
        }
    }

    /** Throws {@link QueueClosedException} as soon as closing begins: receiving ends first. */
    public void checkReceiving() {
        if (phase.get() != Phase.OPEN) {
            throw new QueueClosedException(label);
        }
    }

    /** Whether receivers must stop: the queue is closing or closed. */
    public boolean isClosing() {
        return phase.get() != Phase.OPEN;
    }

    /**
     * Starts managed consumers on {@code queue} (the transport's entry object, whose receiving
     * methods they call); they are stopped when this queue closes.
     */
    public Subscription consume(MessageQueue<T> queue, MessageHandler<T> handler, ConsumeOptions options) {
        return consumers.start(queue, handler, options); // refuses once closing began
    }

    /**
     * Closes gracefully: receivers stop (those blocked notice within a block timeout), the managed
     * consumers' running handlers finish and settle, then every call is refused. True on the first
     * call; a second one waits for the first to end.
     */
    public boolean close() {
        if (!phase.compareAndSet(Phase.OPEN, Phase.CLOSING)) {
            consumers.awaitShutDown();
            return false;
        }
        consumers.shutDown(() -> {
            phase.set(Phase.CLOSED);
            observer.close();
        });
        return true;
    }

    /**
     * Whole milliseconds of a delay, rounded up, plus one for a positive delay: the server adds it
     * to its clock truncated to the millisecond, which may lag the true time by up to a
     * millisecond. So a message is never due before the delay has passed.
     */
    public static long delayMillis(Duration delay) {
        if (delay.isZero()) {
            return 0;
        }
        long ms = delay.toMillis();
        return (delay.getNano() % 1_000_000 == 0 ? ms : ms + 1) + 1;
    }
}
